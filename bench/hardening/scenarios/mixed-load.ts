/*
 * Four times what the machine can do at once (8 connections, 2 workers), of real photos to
 * random formats, for a while: only 200, 503 and the up-front refusal of a job too large for
 * the decode budget may come back, health must stay fast, memory within the formula. The choice of photo and format is seeded, so runs compare.
 */
import { corpusFile, corpusPhotos, fixture, SMALL_PHOTO } from '../inputs.ts'
import { KeepAliveClient, runLanes } from '../keep-alive.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const CONNECTIONS = 8
const DURATION_MS = { quick: 6_000, full: 20_000 }
const QUERIES = ['format=jpeg', 'format=webp', 'format=avif&width=1600', 'format=png']
const SEED = 0x1badcafe

/** mulberry32: a tiny seeded generator, enough to pick inputs reproducibly. */
function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

async function loadPhotos(): Promise<{ names: string; bytes: Uint8Array[] }> {
  const rows = corpusPhotos()
  if (rows.length === 0)
    return { names: `${SMALL_PHOTO} (fixture; corpus absent)`, bytes: [await fixture(SMALL_PHOTO)] }
  return {
    names: `${rows.length} corpus photos`,
    bytes: await Promise.all(rows.map((r) => corpusFile(r.file))),
  }
}

export const mixedLoad: Scenario = {
  name: 'mixed-load',
  attack: `${CONNECTIONS} connections (4× the 2 workers) of photos to jpeg, webp, avif (width 1600) and png`,
  async run({ baseUrl, quick }): Promise<Outcome> {
    const photos = await loadPhotos()
    const random = seeded(SEED)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const tally = new Tally()
    const byQuery = new Map(QUERIES.map((q) => [q, new Tally()]))
    const clients = Array.from({ length: CONNECTIONS }, () => new KeepAliveClient(baseUrl))
    await runLanes(CONNECTIONS, quick ? DURATION_MS.quick : DURATION_MS.full, async (lane) => {
      const query = pick(QUERIES)
      const answer = await clients[lane]!.post(`/api/compress?${query}`, pick(photos.bytes))
      tally.add(answer)
      byQuery.get(query)!.add(answer)
    })
    clients.forEach((client) => client.close())
    // Besides 200 and 503, a job whose header shows it cannot fit the decode budget is refused
    // up front (422 IMAGE_TOO_LARGE: a 20 MP photo as a full-size PNG under a 1 GiB limit).
    const expected = new Set(['200', '422 IMAGE_TOO_LARGE'])
    const unexpected = [...tally.answers.keys()].filter((key) => !expected.has(key) && !key.startsWith('503'))
    return {
      tally,
      lines: [
        `inputs: ${photos.names}; latency by status: ${tally.formatLatencies()}`,
        ...[...byQuery].map(([query, t]) => `  ?${query}: ${t.formatLatencies() || 'none'}`),
      ],
      goals: [
        goal(
          'only 200, 503 and up-front 422 IMAGE_TOO_LARGE, no network errors, some 200s',
          unexpected.length === 0 && tally.networkErrors === 0 && tally.count(200) > 0,
          tally.format(),
        ),
      ],
    }
  },
}

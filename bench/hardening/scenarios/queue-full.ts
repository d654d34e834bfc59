/*
 * A queue of 4 behind 2 workers, and 32 connections posting a ~4 MP photo back to back. Those
 * beyond the queue must be refused at once (503 OVERLOADED before their body is read), not after
 * waiting: their latency is reported apart from the 200s.
 */
import { corpusPhotos, fixture, corpusFile, SMALL_PHOTO } from '../inputs.ts'
import { KeepAliveClient, runLanes } from '../keep-alive.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { ms, Tally } from '../tally.ts'

const CONNECTIONS = 32
const DURATION_MS = { quick: 5_000, full: 15_000 }
const REFUSAL_P50_GOAL_MS = 50
const QUERY = 'format=webp'

/** A corpus photo of about 4 MP, or the small fixture when the corpus is absent. */
async function pickPhoto(): Promise<{ name: string; bytes: Uint8Array }> {
  const row = corpusPhotos().find((r) => r.width && r.height && Math.abs(r.width * r.height - 4e6) < 5e5)
  if (row) return { name: `${row.file} (${row.width}×${row.height})`, bytes: await corpusFile(row.file) }
  return { name: `${SMALL_PHOTO} (fixture; corpus absent)`, bytes: await fixture(SMALL_PHOTO) }
}

export const queueFull: Scenario = {
  name: 'queue-full',
  attack: `${CONNECTIONS} connections posting a ~4 MP photo → WebP back to back, queue of 4`,
  env: { IMGAPI_QUEUE_LENGTH: '4' },
  async run({ baseUrl, quick }): Promise<Outcome> {
    const photo = await pickPhoto()
    const tally = new Tally()
    const clients = Array.from({ length: CONNECTIONS }, () => new KeepAliveClient(baseUrl))
    await runLanes(CONNECTIONS, quick ? DURATION_MS.quick : DURATION_MS.full, async (lane) => {
      tally.add(await clients[lane]!.post(`/api/compress?${QUERY}`, photo.bytes))
    })
    clients.forEach((client) => client.close())
    const refusalP50 = tally.latency(503, 50)
    const unexpected = tally.statuses().filter((s) => s !== 200 && s !== 503)
    return {
      tally,
      lines: [
        `photo ${photo.name}, ${photo.bytes.byteLength} B, ?${QUERY}`,
        `200: p50 ${ms(tally.latency(200, 50))}, p99 ${ms(tally.latency(200, 99))} (n=${tally.count(200)})`,
        `503: p50 ${ms(refusalP50)}, p99 ${ms(tally.latency(503, 99))} (n=${tally.count(503)})`,
      ],
      goals: [
        goal(
          `503 p50 under ${REFUSAL_P50_GOAL_MS} ms`,
          tally.count(503) > 0 && refusalP50 < REFUSAL_P50_GOAL_MS,
          `p50 ${ms(refusalP50)} over ${tally.count(503)} refusals`,
        ),
        goal(
          'work goes on: some 200s, only 200 and 503, no network errors',
          tally.count(200) > 0 && unexpected.length === 0 && tally.networkErrors === 0,
          tally.format(),
        ),
      ],
    }
  },
}

/*
 * Four times what the machine can do at once, from three clients behind one trusted proxy, with
 * a request-rate limit, the per-client cap and a short queue all in force: every request must get
 * 200, 429 (a limit) or 503 (the queue), never anything else, never a dropped connection.
 */
import { fixture, SMALL_PHOTO } from '../inputs.ts'
import { KeepAliveClient, runLanes } from '../keep-alive.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const CLIENTS = 3
const CONNECTIONS_PER_CLIENT = 4
const DURATION_MS = { quick: 6_000, full: 20_000 }
const ALLOWED = new Set([200, 429, 503])

export const limitedLoad: Scenario = {
  name: 'limited-load',
  attack: `${CLIENTS} clients × ${CONNECTIONS_PER_CLIENT} connections (12, 6× the 2 workers) behind a proxy, under a rate limit, the per-client cap and a short queue`,
  env: {
    IMGAPI_TRUST_PROXY: '1',
    IMGAPI_RATE_LIMIT: '40',
    IMGAPI_RATE_WINDOW_MS: '10000',
    IMGAPI_RATE_BURST: '8',
    IMGAPI_MAX_CLIENT_JOBS: '3',
    IMGAPI_QUEUE_LENGTH: '4',
  },
  async run({ baseUrl, quick }): Promise<Outcome> {
    const photo = await fixture(SMALL_PHOTO)
    const tally = new Tally()
    const byClient = Array.from({ length: CLIENTS }, () => new Tally())
    const lanes = CLIENTS * CONNECTIONS_PER_CLIENT
    const clients = Array.from({ length: lanes }, () => new KeepAliveClient(baseUrl))
    await runLanes(lanes, quick ? DURATION_MS.quick : DURATION_MS.full, async (lane) => {
      const client = lane % CLIENTS
      const answer = await clients[lane]!.post('/api/compress?format=webp', photo, {
        'X-Forwarded-For': `198.51.100.${client + 1}`,
      })
      tally.add(answer)
      byClient[client]!.add(answer)
    })
    clients.forEach((client) => client.close())
    const unexpected = tally.statuses().filter((s) => !ALLOWED.has(s))
    return {
      tally,
      lines: [
        `latency by status: ${tally.formatLatencies()}`,
        ...byClient.map((t, i) => `  client ${i + 1}: ${t.format()}`),
      ],
      goals: [
        goal(
          'only 200, 429 and 503, no network errors, some of each of 200 and 429',
          unexpected.length === 0 &&
            tally.networkErrors === 0 &&
            tally.count(200) > 0 &&
            tally.count(429) > 0,
          tally.format(),
        ),
      ],
    }
  },
}

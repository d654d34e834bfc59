/*
 * Clients that hold connections without finishing: slowloris (a request head trickled one byte
 * every 500 ms), uploads at 12 KB/s (answered 408 once IMGAPI_UPLOAD_TIMEOUT_MS passes) and
 * uploads dropped half-way (the server must give their budget back), all at once.
 */
import { RawConnection } from '../raw-connection.ts'
import { ask, failure, requestHead, toAnswer, type Answer } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const UPLOAD_TIMEOUT_MS = 5_000
/** Time the server may take beyond the upload timeout to answer and close. */
const ANSWER_SLACK_MS = 2_000
const COUNTS = { slowloris: 50, slowUploads: 20, aborted: 30 }
const DURATION_MS = { quick: 8_000, full: 15_000 }
/** 12 KB/s: 1,200 bytes every 100 ms. */
const UPLOAD_TRICKLE = { bytes: 1_200, everyMs: 100 }
const HEAD_TRICKLE = { bytes: 1, everyMs: 500 }
const UPLOAD_BYTES = 1_000_000
/** Long enough that trickling it outlasts the scenario. */
const SLOW_HEAD = Buffer.from(requestHead('GET', '/api/health', { 'X-Padding': 'p'.repeat(100) }))
const UPLOAD_HEAD = requestHead('POST', '/api/compress?format=webp', {
  'Content-Type': 'application/octet-stream',
  'Content-Length': UPLOAD_BYTES,
})

interface Trickled {
  readonly answer: Answer
  /** The server ended the connection (after answering, or without a word). */
  readonly closedByServer: boolean
}

/** Sends `data` piece by piece until all is sent, the server answers or closes, or `deadline`. */
async function trickle(
  baseUrl: string,
  parts: { head?: string; data: Uint8Array },
  pace: { bytes: number; everyMs: number },
  deadline: number,
): Promise<Trickled> {
  const started = performance.now()
  const connection = await RawConnection.open(baseUrl).catch(() => undefined)
  if (!connection) return { answer: failure('refused', started), closedByServer: false }
  let answered = false
  const waiting = ask(connection, parts.head ? [parts.head] : [], started, deadline - started)
  const answer = waiting.then((a) => ((answered = true), a))
  for (let at = 0; at < parts.data.length && performance.now() < deadline; at += pace.bytes) {
    if (answered || connection.end) break
    await connection.send(parts.data.subarray(at, at + pace.bytes))
    await Bun.sleep(pace.everyMs)
  }
  const result = await answer
  const end = await connection.closed(1000)
  connection.close()
  return { answer: result, closedByServer: end?.byServer ?? false }
}

/** Half the declared body at once, then the client goes away; an answer before that is kept. */
async function abortHalfWay(baseUrl: string): Promise<Answer | undefined> {
  const started = performance.now()
  const connection = await RawConnection.open(baseUrl).catch(() => undefined)
  if (!connection) return failure('refused', started)
  void connection.send(UPLOAD_HEAD)
  await connection.send(new Uint8Array(UPLOAD_BYTES / 2))
  const early = await connection.nextResponse(200)
  connection.close()
  return early && toAnswer(early, started)
}

const repeat = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make))

function describeSlowloris(results: readonly Trickled[]): string {
  const answered = results.filter((r) => r.answer.status !== undefined).length
  const closed = results.filter((r) => r.answer.status === undefined && r.closedByServer).length
  const open = results.length - answered - closed
  return `slowloris: ${results.length} connections; ${answered} answered, ${closed} closed by the server without an answer, ${open} still open at the end`
}

function slowUploadGoal(uploads: readonly Trickled[]) {
  const good = uploads.filter(
    ({ answer: a, closedByServer }) =>
      a.status === 408 &&
      a.code === 'REQUEST_TIMEOUT' &&
      a.contentType === 'application/problem+json' &&
      a.connectionClose &&
      closedByServer &&
      a.ms < UPLOAD_TIMEOUT_MS + ANSWER_SLACK_MS,
  )
  const slowest = Math.max(...uploads.map((u) => u.answer.ms))
  return goal(
    `slow uploads answered 408 problem+json with Connection: close, then closed, within ${UPLOAD_TIMEOUT_MS + ANSWER_SLACK_MS} ms`,
    good.length === uploads.length,
    `${good.length} of ${uploads.length}; slowest answer after ${Math.round(slowest)} ms`,
  )
}

export const slowClients: Scenario = {
  name: 'slow-clients',
  attack: `${COUNTS.slowloris} slowloris heads (1 byte / 500 ms), ${COUNTS.slowUploads} uploads at 12 KB/s, ${COUNTS.aborted} uploads aborted half-way`,
  env: { IMGAPI_UPLOAD_TIMEOUT_MS: String(UPLOAD_TIMEOUT_MS) },
  async run({ baseUrl, quick, progress }): Promise<Outcome> {
    const deadline = performance.now() + (quick ? DURATION_MS.quick : DURATION_MS.full)
    const slowloris = repeat(COUNTS.slowloris, () =>
      trickle(baseUrl, { data: SLOW_HEAD }, HEAD_TRICKLE, deadline),
    )
    const uploads = repeat(COUNTS.slowUploads, () =>
      trickle(baseUrl, { head: UPLOAD_HEAD, data: new Uint8Array(UPLOAD_BYTES) }, UPLOAD_TRICKLE, deadline),
    )
    await Bun.sleep(1000)
    const aborted = await repeat(COUNTS.aborted, () => abortHalfWay(baseUrl))
    progress(`${COUNTS.aborted} uploads aborted; waiting for the slow ones`)
    const [heads, bodies] = await Promise.all([slowloris, uploads])
    const tally = new Tally()
    const uploadTally = new Tally()
    for (const { answer } of bodies) [tally, uploadTally].forEach((t) => t.add(answer))
    for (const { answer } of heads) if (answer.status !== undefined) tally.add(answer)
    for (const answer of aborted) if (answer) tally.add(answer)
    return {
      tally,
      lines: [
        `IMGAPI_UPLOAD_TIMEOUT_MS=${UPLOAD_TIMEOUT_MS}`,
        describeSlowloris(heads),
        `slow uploads: ${uploadTally.format()}; ${uploadTally.formatLatencies()}`,
        `aborted uploads: ${aborted.filter(Boolean).length} of ${COUNTS.aborted} answered before the client left`,
      ],
      goals: [
        slowUploadGoal(bodies),
        goal(
          'no 5xx',
          tally.statuses().every((s) => s < 500),
          tally.format(),
        ),
      ],
    }
  },
}

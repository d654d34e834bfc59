/*
 * SIGTERM under keep-alive load. For IMGAPI_DRAIN_DELAY_MS the server keeps serving, health says
 * "draining" and every response carries Connection: close; then it stops accepting, finishes
 * what is in flight and exits 0. No client may lose a request it had already sent.
 */
import { fixture, SMALL_PHOTO } from '../inputs.ts'
import { KeepAliveClient, type LaneAnswer } from '../keep-alive.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const DRAIN_DELAY_MS = 2_000
const CONNECTIONS = 16
const BEFORE_SIGNAL_MS = { quick: 1_000, full: 3_000 }
/** After the drain delay, in-flight work must end and the process exit within this. */
const EXIT_WAIT_MS = 40_000
const QUERY = 'format=webp&width=200'
/** Probing stops just before the listener closes: a refused probe then would be expected, not a failure. */
const PROBE_MARGIN_MS = 200

interface Sent extends LaneAnswer {
  /** Sent after the signal. */
  readonly afterSignal: boolean
}

const refusedCodes = new Set(['refused', 'ECONNREFUSED'])

export const sigterm: Scenario = {
  name: 'sigterm',
  attack: `SIGTERM while ${CONNECTIONS} keep-alive connections post small images back to back`,
  env: { IMGAPI_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS) },
  async run({ baseUrl, server, quick, stopProbing, progress }): Promise<Outcome> {
    const photo = await fixture(SMALL_PHOTO)
    const sent: Sent[] = []
    let signalledAt: number | undefined
    let exitedAt: number | undefined
    const exitCode = server.exited.then((code) => ((exitedAt = performance.now()), code))
    const lane = async () => {
      const client = new KeepAliveClient(baseUrl)
      for (;;) {
        const afterSignal = signalledAt !== undefined
        const answer = await client.post(`/api/compress?${QUERY}`, photo)
        sent.push({ ...answer, afterSignal })
        if (answer.error && refusedCodes.has(answer.error)) return
        if (exitedAt !== undefined) return
      }
    }
    const lanes = Promise.all(Array.from({ length: CONNECTIONS }, lane))
    await Bun.sleep(quick ? BEFORE_SIGNAL_MS.quick : BEFORE_SIGNAL_MS.full)
    server.signal('SIGTERM')
    signalledAt = performance.now()
    progress('SIGTERM sent')
    await Bun.sleep(DRAIN_DELAY_MS - PROBE_MARGIN_MS)
    await stopProbing()
    const code = await Promise.race([exitCode, Bun.sleep(EXIT_WAIT_MS).then(() => undefined)])
    await lanes
    return summarize(sent, code, exitedAt === undefined ? undefined : exitedAt - signalledAt)
  },
}

function summarize(sent: readonly Sent[], code: number | undefined, exitMs: number | undefined): Outcome {
  const tally = new Tally()
  sent.forEach((answer) => tally.add(answer))
  const after = sent.filter((s) => s.afterSignal && s.status !== undefined)
  const closing = after.filter((s) => s.connectionClose).length
  const lost = sent.filter((s) => s.error && !refusedCodes.has(s.error))
  const refused = sent.filter((s) => s.error && refusedCodes.has(s.error)).length
  const lostDetail = lost.map((s) => `${s.error}${s.reused ? ' on a reused connection' : ''}`)
  return {
    tally,
    stopsServer: true,
    lines: [
      `IMGAPI_DRAIN_DELAY_MS=${DRAIN_DELAY_MS}; ${sent.length} requests, ${after.length} answered after the signal`,
      `after the signal: ${closing} of ${after.length} responses carried Connection: close; ${refused} connections refused once the listener closed`,
      `exit code ${code ?? 'none (still running)'}, ${exitMs === undefined ? 'did not exit' : `exited ${(exitMs / 1000).toFixed(2)} s after the signal`}`,
    ],
    goals: [
      goal(
        'no request lost: no connection reset or closed with a request in flight',
        lost.length === 0,
        lost.length ? `${lost.length}: ${lostDetail.slice(0, 5).join(', ')}` : '0',
      ),
      goal(
        'every response to a request sent after the signal carried Connection: close',
        after.length > 0 && closing === after.length,
        `${closing} of ${after.length}`,
      ),
      goal('exit code 0', code === 0, `exit code ${code ?? 'none'}`),
    ],
  }
}

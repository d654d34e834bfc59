/*
 * 200 concurrent 30 MiB uploads, each body sent as fast as the client can: before admission
 * this once took the process to 6 GB. Now each upload reserves its Content-Length from the
 * upload budget before a byte is read, so most must be refused at once with 503 OVERLOADED.
 * The bodies are noise (no image): the admitted ones are read in full, then get 415.
 */
import { procStatusBytes } from '../../common/proc.ts'
import { noise } from '../inputs.ts'
import { mib } from '../memory.ts'
import { askOnce, requestHead } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const UPLOAD_BYTES = 30 * 1024 * 1024
const UPLOADS = 200
/** Back-to-back waves: memory given back after one wave must really be free for the next. */
const WAVES = { quick: 1, full: 3 }
/** "At once": a refusal must not wait for anyone's body. */
const REFUSAL_GOAL_MS = 1_000

/** One wave, all at once; returns a line with its duration and the server's RSS afterwards. */
async function wave(baseUrl: string, pid: number, request: (Uint8Array | string)[], tally: Tally) {
  const started = performance.now()
  const answers = await Promise.all(Array.from({ length: UPLOADS }, () => askOnce(baseUrl, request)))
  answers.forEach((answer) => tally.add(answer))
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const [rss, hwm] = (['VmRSS', 'VmHWM'] as const).map((f) => mib(procStatusBytes(pid, f) ?? Number.NaN))
  return `${seconds} s, then VmRSS ${rss}, VmHWM ${hwm}`
}

export const parallelUploads: Scenario = {
  name: 'parallel-uploads',
  attack: `${UPLOADS} concurrent raw uploads of 30 MiB, sent at full speed, ${WAVES.full} waves back to back (quick: 1)`,
  async run({ baseUrl, server, quick, progress }): Promise<Outcome> {
    const body = noise(UPLOAD_BYTES)
    const head = requestHead('POST', '/api/compress?format=webp', {
      'Content-Type': 'application/octet-stream',
      'Content-Length': body.byteLength,
      Connection: 'close',
    })
    const tally = new Tally()
    const waves = quick ? WAVES.quick : WAVES.full
    const lines: string[] = []
    for (let n = 1; n <= waves; n++) {
      lines.push(`wave ${n}: ${await wave(baseUrl, server.pid, [head, body], tally)}`)
      progress(`wave ${n}/${waves}: ${tally.format()}`)
    }
    const refused = tally.count(503)
    const refusalP99 = tally.latency(503, 99)
    const unexpected = tally.statuses().filter((s) => s >= 500 && s !== 503)
    return {
      tally,
      lines: [...lines, `latency by status: ${tally.formatLatencies()}`],
      goals: [
        goal(
          `most refused at once: 503 for more than half, p99 of the 503s under ${REFUSAL_GOAL_MS} ms`,
          refused > (UPLOADS * waves) / 2 && refusalP99 < REFUSAL_GOAL_MS,
          `${refused} of ${UPLOADS * waves} refused, p99 ${Math.round(refusalP99)} ms`,
        ),
        goal(
          'no other 5xx and no resets',
          unexpected.length === 0 && tally.networkErrors === 0,
          tally.format(),
        ),
      ],
    }
  },
}

/*
 * The encodes that cannot be interrupted: a 20 MP photo as AVIF at effort 9 (libheif/aom), and
 * a 9 MP noise image as a palette PNG (libimagequant, about 20 s of work). They once ran for
 * minutes past their job timeout while holding the server; now each runs in a worker process
 * that is killed at the job timeout. Each is sent several times: the answer must be 422
 * PROCESSING_TIMEOUT at the timeout every time, the killed job's slot must be free again
 * within 100 ms of the answer at the worst of the runs (the 99th percentile of so few), and a
 * small image sent meanwhile must be served at once. The memory limit is raised so that the
 * 20 MP AVIF is admitted; its bound is the one checked.
 */
import sharp from 'sharp'
import { median } from '../../common/figures.ts'
import { corpusFile, corpusMissing, onePixelPng } from '../inputs.ts'
import { postImage, type Answer } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const PHOTO = 'photo-bird-nuthatch-20mp.jpg'
const JOB_TIMEOUT_MS = 2000
/** The slot is free again this soon after the timeout answer. */
const FREE_WITHIN_MS = 100
const RUNS_EACH = 5

async function runningJobs(baseUrl: string): Promise<number> {
  const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { queue: { running: number } }
  return health.queue.running
}

/** A JPEG of random pixels: every colour differs, the worst case for a palette. */
async function noiseJpeg(): Promise<Uint8Array> {
  const width = 3000
  const height = 3000
  const raw = Buffer.alloc(width * height * 3)
  // getRandomValues fills at most 64 KiB a call.
  for (let offset = 0; offset < raw.length; offset += 65_536) {
    crypto.getRandomValues(raw.subarray(offset, Math.min(raw.length, offset + 65_536)))
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer()
}

interface Killed {
  readonly what: string
  readonly answer: Answer
  readonly freedMs: number
}

/** One request that must time out, and how long after its answer the server runs no job. */
async function killedJob(baseUrl: string, what: string, query: string, body: Uint8Array): Promise<Killed> {
  const answer = await postImage(baseUrl, query, body)
  const answeredAt = performance.now()
  while ((await runningJobs(baseUrl)) > 0 && performance.now() - answeredAt < 5000) await Bun.sleep(2)
  return { what, answer, freedMs: performance.now() - answeredAt }
}

export const avifWorst: Scenario = {
  name: 'avif-worst',
  attack: `${PHOTO} as AVIF at effort 9 and a 9 MP noise image as a palette PNG, ${RUNS_EACH} times each, with a ${JOB_TIMEOUT_MS / 1000} s job timeout; a small PNG sent meanwhile`,
  env: { IMGAPI_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS), IMGAPI_MEMORY_LIMIT_BYTES: String(4 * 2 ** 30) },
  skipReason: corpusMissing,
  async run({ baseUrl, progress }): Promise<Outcome> {
    const tally = new Tally()
    const photo = await corpusFile(PHOTO)
    const noise = await noiseJpeg()
    const small = await onePixelPng()
    const killed: Killed[] = []
    let quick: Answer | undefined
    for (let run = 0; run < RUNS_EACH; run++) {
      progress(`run ${run + 1}/${RUNS_EACH}: AVIF effort 9, then the noise as a palette PNG`)
      const avif = killedJob(baseUrl, 'AVIF', 'format=avif&effort=9', photo)
      if (run === 0) {
        await Bun.sleep(500)
        quick = await postImage(baseUrl, 'format=png', small)
      }
      killed.push(await avif)
      killed.push(await killedJob(baseUrl, 'palette PNG', 'format=png&quality=80', noise))
    }
    for (const k of killed) tally.add(k.answer)
    tally.add(quick!)
    const timedOut = killed.filter(
      (k) =>
        k.answer.status === 422 &&
        k.answer.code === 'PROCESSING_TIMEOUT' &&
        k.answer.ms < JOB_TIMEOUT_MS + 1000,
    )
    const worst = (what: string) => Math.max(...killed.filter((k) => k.what === what).map((k) => k.freedMs))
    const worstFreed = Math.max(worst('AVIF'), worst('palette PNG'))
    const answers = killed.map(
      (k) => `${k.answer.status} ${k.answer.code ?? ''} ${Math.round(k.answer.ms)} ms`,
    )
    return {
      tally,
      lines: [
        ...['AVIF', 'palette PNG'].map(
          (what) =>
            `${what}: answers ${killed
              .filter((k) => k.what === what)
              .map((k) => `${k.answer.status} in ${(k.answer.ms / 1000).toFixed(1)} s`)
              .join(
                ', ',
              )}; slot free at worst ${Math.round(worst(what))} ms after the answer (median ${Math.round(
              median(killed.filter((k) => k.what === what).map((k) => k.freedMs)),
            )} ms)`,
        ),
        `1×1 PNG meanwhile: ${quick!.status} in ${Math.round(quick!.ms)} ms`,
      ],
      goals: [
        goal(
          `422 PROCESSING_TIMEOUT within the job timeout plus 1 s, every time`,
          timedOut.length === killed.length,
          `${timedOut.length} of ${killed.length}: ${answers.join(', ')}`,
        ),
        goal(
          `the slot free within ${FREE_WITHIN_MS} ms, at the worst of ${killed.length}`,
          worstFreed <= FREE_WITHIN_MS,
          `${Math.round(worstFreed)} ms`,
        ),
        goal(
          'the small PNG served meanwhile',
          quick!.status === 200,
          `${quick!.status} ${Math.round(quick!.ms)} ms`,
        ),
      ],
    }
  },
}

/*
 * The slowest AVIF there is: a 20 MP photo at effort 9. libheif cannot be interrupted, so this
 * once ran for minutes past its job timeout while holding a worker; now the job runs in a
 * worker process that is killed at the job timeout. The answer must be 422 PROCESSING_TIMEOUT
 * at the timeout, a small image sent meanwhile must be served at once, and the killed job's
 * slot must be free again within 100 ms of the answer.
 */
import { corpusFile, corpusMissing } from '../inputs.ts'
import { postImage } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const PHOTO = 'photo-bird-nuthatch-20mp.jpg'
const JOB_TIMEOUT_MS = 4000
/** The slot is free again this soon after the timeout answer. */
const FREE_WITHIN_MS = 100

async function runningJobs(baseUrl: string): Promise<number> {
  const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { queue: { running: number } }
  return health.queue.running
}

export const avifWorst: Scenario = {
  name: 'avif-worst',
  attack: `${PHOTO} as AVIF at effort 9 with a ${JOB_TIMEOUT_MS / 1000} s job timeout, a small PNG sent meanwhile`,
  env: { IMGAPI_JOB_TIMEOUT_MS: String(JOB_TIMEOUT_MS) },
  skipReason: corpusMissing,
  async run({ baseUrl, progress }): Promise<Outcome> {
    const tally = new Tally()
    const photo = await corpusFile(PHOTO)
    const small = await corpusFile('png-tiny-1x1-prophoto-icc.png')
    progress(`${PHOTO} ?format=avif&effort=9, and a 1×1 PNG 500 ms later`)
    const slow = postImage(baseUrl, 'format=avif&effort=9', photo).then(async (answer) => {
      const answeredAt = performance.now()
      while ((await runningJobs(baseUrl)) > 0 && performance.now() - answeredAt < 5000) await Bun.sleep(2)
      return { answer, freedMs: performance.now() - answeredAt }
    })
    await Bun.sleep(500)
    const quick = await postImage(baseUrl, 'format=png', small)
    const { answer, freedMs } = await slow
    tally.add(answer)
    tally.add(quick)
    return {
      tally,
      lines: [
        `AVIF effort 9: ${answer.status} ${answer.code ?? ''} in ${(answer.ms / 1000).toFixed(1)} s; slot free ${Math.round(freedMs)} ms after the answer`,
        `1×1 PNG meanwhile: ${quick.status} in ${Math.round(quick.ms)} ms`,
      ],
      goals: [
        goal(
          `422 PROCESSING_TIMEOUT within the job timeout plus 1 s`,
          answer.status === 422 && answer.code === 'PROCESSING_TIMEOUT' && answer.ms < JOB_TIMEOUT_MS + 1000,
          `${answer.status} ${answer.code ?? ''} ${Math.round(answer.ms)} ms`,
        ),
        goal(
          `its slot free within ${FREE_WITHIN_MS} ms`,
          freedMs <= FREE_WITHIN_MS,
          `${Math.round(freedMs)} ms`,
        ),
        goal(
          'the small PNG served meanwhile',
          quick.status === 200,
          `${quick.status} ${Math.round(quick.ms)} ms`,
        ),
      ],
    }
  },
}

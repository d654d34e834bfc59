/*
 * The slowest AVIF the defaults allow. libheif cannot be interrupted, so a 20 MP AVIF at effort 9
 * once ran for minutes past its job timeout; now effort and pixels are capped up front. The full
 * 20 MP photo must be refused by the pixel cap; then two encodes just under the cap, at the
 * highest effort /api/formats publishes, run at once and must end well inside the job timeout.
 */
import { corpusFile, corpusMissing, corpusRows } from '../inputs.ts'
import { askOnce, postImage, requestHead } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const PHOTO = 'photo-bird-nuthatch-20mp.jpg'
/** "Well under" the job timeout: at most this share of it. */
const JOB_TIMEOUT_SHARE = 0.5

async function maxAvifEffort(baseUrl: string): Promise<number> {
  const answer = await askOnce(baseUrl, [requestHead('GET', '/api/formats', { Connection: 'close' })])
  const formats: { id: string; tunables: { effort?: { max: number } } }[] = JSON.parse(answer.body).formats
  const effort = formats.find((f) => f.id === 'avif')?.tunables.effort?.max
  if (effort === undefined) throw new Error(`GET /api/formats publishes no AVIF effort (${answer.status})`)
  return effort
}

/** The widest resize whose output (height rounded up, to be safe) stays within `maxPixels`. */
export function widthUnderCap(width: number, height: number, maxPixels: number): number {
  let w = Math.min(width, Math.floor(Math.sqrt((maxPixels * width) / height)))
  while (w * Math.ceil((w * height) / width) > maxPixels) w--
  return w
}

export const avifWorst: Scenario = {
  name: 'avif-worst',
  attack: `${PHOTO} as AVIF: full size (must be refused), then 2 at once just under the AVIF pixel cap at the highest effort`,
  skipReason: corpusMissing,
  async run({ baseUrl, config, progress }): Promise<Outcome> {
    const row = corpusRows().find((r) => r.file === PHOTO)
    if (!row?.width || !row.height) throw new Error(`${PHOTO} is not in the corpus manifest`)
    const photo = await corpusFile(PHOTO)
    const effort = await maxAvifEffort(baseUrl)
    const tally = new Tally()
    const full = await postImage(baseUrl, `format=avif&effort=${effort}`, photo)
    tally.add(full)
    const width = widthUnderCap(row.width, row.height, config.maxAvifPixels)
    const query = `format=avif&effort=${effort}&width=${width}`
    progress(`2 × ?${query} at once`)
    const pair = await Promise.all([postImage(baseUrl, query, photo), postImage(baseUrl, query, photo)])
    pair.forEach((answer) => tally.add(answer))
    const limitMs = config.jobTimeoutMs * JOB_TIMEOUT_SHARE
    const outPixels = width * Math.round((width * row.height) / row.width)
    return {
      tally,
      lines: [
        `full size ${row.width}×${row.height} at effort ${effort}: ${full.status} ${full.code ?? ''} in ${Math.round(full.ms)} ms`,
        `cap IMGAPI_MAX_AVIF_PIXELS=${config.maxAvifPixels}: width=${width} (≈${outPixels} px), effort ${effort} (the published maximum)`,
        `durations of the pair: ${pair.map((a) => `${a.status ?? a.error} in ${(a.ms / 1000).toFixed(1)} s`).join(', ')}`,
      ],
      goals: [
        goal(
          'full size refused 422 IMAGE_TOO_LARGE',
          full.status === 422 && full.code === 'IMAGE_TOO_LARGE',
          `${full.status} ${full.code ?? ''}`,
        ),
        goal(
          `both just-under-cap encodes 200, each under ${limitMs / 1000} s (half the ${config.jobTimeoutMs / 1000} s job timeout)`,
          pair.every((a) => a.status === 200 && a.ms < limitMs),
          pair.map((a) => `${a.status ?? a.error} ${(a.ms / 1000).toFixed(1)} s`).join(', '),
        ),
      ],
    }
  },
}

/*
 * The slowest AVIF the defaults allow. libheif cannot be interrupted, so a 20 MP AVIF at effort 9
 * once ran for minutes past its job timeout; now the pixels are capped and each encode is bounded
 * by IMGAPI_ENCODE_BUDGET_MS from the measured cost of its effort on the worst content (noise).
 * The full 20 MP photo must be refused; then, at once, two encodes of random noise at the edge of
 * what is accepted: the pixel cap with the effort left to the server, and the largest image the
 * default effort may encode when asked for explicitly. Both must end well inside the job timeout.
 */
import sharp from 'sharp'
import { affordablePixels } from '../../../src/image/encode-budget.ts'
import { tunablesFor } from '../../../src/image/formats.ts'
import { corpusFile, corpusMissing, corpusRows } from '../inputs.ts'
import { postImage } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const PHOTO = 'photo-bird-nuthatch-20mp.jpg'
/** "Well under" the job timeout: at most this share of it. */
const JOB_TIMEOUT_SHARE = 0.5

/** The widest resize whose output (height rounded up, to be safe) stays within `maxPixels`. */
export function widthUnderCap(width: number, height: number, maxPixels: number): number {
  let w = Math.min(width, Math.floor(Math.sqrt((maxPixels * width) / height)))
  while (w * Math.ceil((w * height) / width) > maxPixels) w--
  return w
}

/** Random noise of about `pixels` at 3:2, losslessly stored: the hardest content for an encoder. */
async function noise(pixels: number): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const width = widthUnderCap(3000, 2000, pixels)
  const height = Math.floor((width * 2) / 3)
  const bytes = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 64 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer()
  return { bytes: new Uint8Array(bytes), width, height }
}

export const avifWorst: Scenario = {
  name: 'avif-worst',
  attack: `${PHOTO} as AVIF at full size (must be refused), then 2 noise images at once at the edge of what AVIF accepts`,
  skipReason: corpusMissing,
  async run({ baseUrl, config, progress }): Promise<Outcome> {
    const row = corpusRows().find((r) => r.file === PHOTO)
    if (!row?.width || !row.height) throw new Error(`${PHOTO} is not in the corpus manifest`)
    const tally = new Tally()
    const full = await postImage(baseUrl, 'format=avif', await corpusFile(PHOTO))
    tally.add(full)
    const defaultEffort = tunablesFor('avif', config).effort!.default
    const atCap = await noise(config.maxAvifPixels)
    const explicitPixels = Math.min(
      config.maxAvifPixels,
      affordablePixels('avif', defaultEffort, config.encodeBudgetMs),
    )
    const atEffort = await noise(explicitPixels)
    const explicitQuery = `format=avif&effort=${defaultEffort}`
    progress(
      `noise ${atCap.width}×${atCap.height} ?format=avif and ${atEffort.width}×${atEffort.height} ?${explicitQuery}, at once`,
    )
    const pair = await Promise.all([
      postImage(baseUrl, 'format=avif', atCap.bytes),
      postImage(baseUrl, explicitQuery, atEffort.bytes),
    ])
    pair.forEach((answer) => tally.add(answer))
    const limitMs = config.jobTimeoutMs * JOB_TIMEOUT_SHARE
    return {
      tally,
      lines: [
        `full size ${row.width}×${row.height}: ${full.status} ${full.code ?? ''} in ${Math.round(full.ms)} ms`,
        `IMGAPI_MAX_AVIF_PIXELS=${config.maxAvifPixels}, IMGAPI_ENCODE_BUDGET_MS=${config.encodeBudgetMs}`,
        `noise ${atCap.width}×${atCap.height}, effort left to the server: ${pair[0]!.status ?? pair[0]!.error} in ${(pair[0]!.ms / 1000).toFixed(1)} s`,
        `noise ${atEffort.width}×${atEffort.height}, effort ${defaultEffort} asked for: ${pair[1]!.status ?? pair[1]!.error} in ${(pair[1]!.ms / 1000).toFixed(1)} s`,
      ],
      goals: [
        goal(
          'full size refused 422 IMAGE_TOO_LARGE',
          full.status === 422 && full.code === 'IMAGE_TOO_LARGE',
          `${full.status} ${full.code ?? ''}`,
        ),
        goal(
          `both edge-of-limit noise encodes 200, each under ${limitMs / 1000} s (half the ${config.jobTimeoutMs / 1000} s job timeout)`,
          pair.every((a) => a.status === 200 && a.ms < limitMs),
          pair.map((a) => `${a.status ?? a.error} ${(a.ms / 1000).toFixed(1)} s`).join(', '),
        ),
      ],
    }
  },
}

/*
 * How close each output is to what it was made from, with the service's own metric
 * (src/image/search/similarity.ts: SSIM on luma at about a megapixel). The reference is the photo
 * resized to the compared width by sharp and never encoded, so that a smaller file can be
 * judged at equal similarity. Scored after the timed rounds, so it costs them nothing.
 */
import { prepareReference, scoreCandidate, type PreparedReference } from '../../src/image/search/index.ts'
import { sharp } from '../../src/image/sharp.ts'
import type { Photo } from './clients.ts'
import type { Samples } from './measure.ts'
import { WIDTH } from './rows.ts'

/** Keyed by width, then photo. */
export type References = ReadonlyMap<number, ReadonlyMap<string, PreparedReference>>

export async function prepareReferences(
  photos: readonly Photo[],
  widths: readonly number[] = [WIDTH],
): Promise<References> {
  const references = new Map<number, Map<string, PreparedReference>>()
  for (const width of new Set(widths)) {
    const atWidth = new Map<string, PreparedReference>()
    for (const photo of photos) {
      // The same resize both servers run (lanczos3, width only); the pipeline is rendered raw, losslessly.
      const resized = sharp(photo.bytes).autoOrient().resize({ width, withoutEnlargement: true })
      atWidth.set(photo.name, await prepareReference(resized))
    }
    references.set(width, atWidth)
  }
  return references
}

export interface Scored {
  readonly photo: string
  readonly bytes: number
  readonly width: number
  readonly height: number
  readonly ssim: number
}

/** Each sample's size, dimensions and SSIM against its photo's reference. */
export async function scoreSamples(
  samples: Samples,
  references: References,
  atWidth: number = WIDTH,
): Promise<Scored[]> {
  const scored: Scored[] = []
  for (const [photo, bytes] of samples) {
    const reference = references.get(atWidth)?.get(photo)
    if (!reference) throw new Error(`no reference for ${photo} at width ${atWidth}`)
    const { width = 0, height = 0 } = await sharp(bytes).metadata()
    const { score } = await scoreCandidate(reference, bytes)
    scored.push({ photo, bytes: bytes.length, width, height, ssim: score })
  }
  return scored
}

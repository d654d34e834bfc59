import { firstFrame, pixelsImage, type Pixels } from './pixels.ts'
import type { JobPlan } from '../plan.ts'
import { prepareReference, type PreparedReference } from './similarity.ts'

/** References of one set of pixels, by how a plan shows them: flattened on a colour, or with alpha. */
export type References = Map<string, Promise<PreparedReference>>

/** The luma reference a candidate is judged against: its own flattening, since JPEG's background shows. */
export function referenceFor(pixels: Pixels, plan: JobPlan, cache: References = new Map()) {
  const still = firstFrame(pixels)
  const key = plan.flatten ? plan.background : 'alpha'
  let reference = cache.get(key)
  if (!reference) {
    const image = pixelsImage(still)
    reference = prepareReference(plan.flatten ? image.flatten({ background: plan.background }) : image)
    cache.set(key, reference)
  }
  return reference
}

import { firstFrame, type Pixels } from './pixels.ts'
import type { JobPlan } from '../plan.ts'
import { prepareRawReference, type PreparedReference } from './similarity.ts'

/** References of one set of pixels, by how a plan shows them: flattened on a colour, or with alpha. */
export type References = Map<string, Promise<PreparedReference>>

/** What transparency is judged on: the plan's background when the output flattens, else white, as a viewer shows it. */
export const shownOn = (plan: JobPlan): string | undefined => (plan.flatten ? plan.background : undefined)

/** The luma reference a candidate is judged against: its own flattening, since JPEG's background shows. */
export function referenceFor(pixels: Pixels, plan: JobPlan, cache: References = new Map()) {
  const key = plan.flatten ? plan.background : 'alpha'
  let reference = cache.get(key)
  if (!reference) {
    reference = prepareRawReference(firstFrame(pixels), shownOn(plan))
    cache.set(key, reference)
  }
  return reference
}

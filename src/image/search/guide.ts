/*
 * What a search on a sample says about the whole image. The sample's curve of ln(1 - score)
 * against quality runs close to the whole image's: where it crosses the level is where the
 * whole image is probed first, and its slope says how far that probe's score is from the
 * level in quality steps (the sample's tiles are not the whole picture, so the two curves sit
 * a little apart). So a search that probed its sample needs one or two encodes of the whole
 * image instead of three to five.
 */

/** One probe: its quality and ln(1 - score), which falls close to linearly with quality. */
export interface Point {
  readonly quality: number
  readonly lnLoss: number
}

/** d ln(1 - SSIM) / d quality on the corpus photos, for extrapolating from a single point. */
export const TYPICAL_SLOPE = -0.035

export const lnLossOf = (score: number) => Math.log(Math.max(1e-6, 1 - score))

/** The points by quality, one per quality (the last probe of a quality wins). */
function byQuality(points: readonly Point[]): Point[] {
  const unique = new Map(points.map((p) => [p.quality, p]))
  return [...unique.values()].sort((a, b) => a.quality - b.quality)
}

/** Slope of a segment, or the typical one where the curve does not fall. */
const fallingSlope = (a: Point, b: Point) => {
  const slope = (b.lnLoss - a.lnLoss) / (b.quality - a.quality)
  return slope < 0 ? slope : TYPICAL_SLOPE
}

/**
 * The lowest quality, as a real number, at which the curve reaches `goal`: the first segment,
 * from the top quality down, that straddles it; beyond the points, along the end segment.
 */
export function crossing(points: readonly Point[], goal: number): number {
  const sorted = byQuality(points)
  const top = sorted.at(-1)!
  if (sorted.length === 1) return top.quality + (goal - top.lnLoss) / TYPICAL_SLOPE
  // Passing means lnLoss <= goal. Walk down while the next lower point still passes.
  let i = sorted.length - 1
  if (top.lnLoss > goal) return top.quality + (goal - top.lnLoss) / fallingSlope(sorted[i - 1]!, top)
  while (i > 0 && sorted[i - 1]!.lnLoss <= goal) i--
  if (i === 0) return sorted[0]!.quality + (goal - sorted[0]!.lnLoss) / fallingSlope(sorted[0]!, sorted[1]!)
  const [a, b] = [sorted[i - 1]!, sorted[i]!]
  return a.quality + ((goal - a.lnLoss) * (b.quality - a.quality)) / (b.lnLoss - a.lnLoss)
}

/** Qualities around the sample's crossing that its slope is fitted on. */
const FIT_SPAN = 10

/**
 * The sample curve's slope near `around`: least squares over its points within FIT_SPAN, so
 * that two probes a step apart (where the score moves unevenly) do not decide it alone.
 */
export function slopeNear(points: readonly Point[], around: number): number {
  const near = byQuality(points).filter((p) => Math.abs(p.quality - around) <= FIT_SPAN)
  if (near.length < 2) return TYPICAL_SLOPE
  const meanQ = near.reduce((sum, p) => sum + p.quality, 0) / near.length
  const meanL = near.reduce((sum, p) => sum + p.lnLoss, 0) / near.length
  let covariance = 0
  let variance = 0
  for (const p of near) {
    covariance += (p.quality - meanQ) * (p.lnLoss - meanL)
    variance += (p.quality - meanQ) ** 2
  }
  const slope = covariance / variance
  return slope < 0 ? slope : TYPICAL_SLOPE
}

/** Where the whole image crosses `goal`, from one probe of it and the sample's slope. */
export function guidedCrossing(slope: number, whole: Point, goal: number): number {
  return whole.quality + (goal - whole.lnLoss) / slope
}

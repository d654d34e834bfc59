/*
 * How many times to repeat a measurement, and when to skip it, so that the whole bench fits its
 * time budget: AVIF at effort 9 costs ~18 CPU seconds a megapixel here, so a full grid would take hours.
 */

export interface Budget {
  /** A single run predicted to cost more than this is skipped (and extrapolated instead). */
  readonly capSeconds: number
  /** Runs are repeated (up to `maxRuns`) while they fit in this many seconds in total. */
  readonly repeatSeconds: number
  readonly maxRuns: number
  /**
   * Measure the second size even above the cap: per-megapixel extrapolation is only honest
   * once the cost has been seen to scale linearly between two sizes.
   */
  readonly alwaysSecondSize: boolean
}

export const FULL_BUDGET: Budget = { capSeconds: 30, repeatSeconds: 5, maxRuns: 3, alwaysSecondSize: true }
/** Memory needs no extrapolation past the sizes the limits will allow, so its cap is lower. */
export const FULL_MEMORY_BUDGET: Budget = { ...FULL_BUDGET, capSeconds: 15, alwaysSecondSize: false }
export const QUICK_BUDGET: Budget = { capSeconds: 4, repeatSeconds: 3, maxRuns: 1, alwaysSecondSize: false }

export function runsFor(budget: Budget, predictedSeconds: number): number {
  const fit = Math.floor(budget.repeatSeconds / Math.max(predictedSeconds, 1e-3))
  return Math.min(budget.maxRuns, Math.max(1, fit))
}

/** Whether a size is worth measuring, given the prediction and how many sizes are measured. */
export function shouldMeasure(budget: Budget, predictedSeconds: number, measuredSizes: number): boolean {
  if (measuredSizes === 0) return true
  if (measuredSizes === 1 && budget.alwaysSecondSize) return true
  return predictedSeconds <= budget.capSeconds
}

/**
 * Runs `once`, then again as many times as the budget allows given what the first cost. Encodes
 * are costed in CPU seconds, so that other work on the machine does not change what is measured.
 */
export async function repeatWithin<T>(
  budget: Budget,
  once: () => Promise<T>,
  cost: (result: T) => number,
): Promise<T[]> {
  const first = await once()
  const runs = runsFor(budget, cost(first))
  const results = [first]
  while (results.length < runs) results.push(await once())
  return results
}

import type { Attempt, EncodeSession } from './session.ts'

/** The outcome of a byte-target search: the best attempt that fits, and the smallest one seen. */
export interface FitResult {
  readonly fit?: Attempt
  readonly smallest: Attempt
}

/** Good enough: within 10% under the target, where the quality steps allow. */
export const CLOSE_ENOUGH = 0.9

export const size = (attempt: Attempt) => attempt.encoded.data.length
const smaller = (a: Attempt | undefined, b: Attempt) => (a && size(a) <= size(b) ? a : b)

/**
 * The highest value in [lo, hi] of a setting whose output shrinks as it falls (quality, palette
 * colours) that fits in `maxBytes`: bracket it, then step by interpolating the log of the size,
 * which is close to linear in both, so a few encodes land within 10% under the target.
 */
export async function highestThatFits(
  session: EncodeSession,
  encodeAt: (value: number) => Promise<Attempt>,
  range: { lo: number; hi: number; start: number },
  maxBytes: number,
  interpolate: (value: number) => number = (v) => v,
): Promise<FitResult | undefined> {
  let smallest: Attempt | undefined
  let fit: Attempt | undefined
  let lo = range.lo
  let hi = range.hi
  let loSize: number | undefined
  let hiSize: number | undefined
  const tryAt = async (value: number) => {
    const attempt = await encodeAt(value)
    smallest = smaller(smallest, attempt)
    // Every value tried after the first lies inside the bracket, so a fit is the highest yet.
    if (size(attempt) <= maxBytes) {
      fit = attempt
      lo = value
      loSize = size(attempt)
      session.offer(attempt)
    } else {
      hi = value
      hiSize = size(attempt)
    }
    return attempt
  }
  if (!session.canAfford()) return undefined
  await tryAt(range.start)
  if (loSize === undefined) {
    // Even the start is too big: is the bottom of the range small enough?
    if (range.start === range.lo || !session.canAfford()) return { smallest: smallest! }
    lo = range.lo
    await tryAt(range.lo)
    if (loSize === undefined) return { smallest: smallest! }
  } else if (range.start < range.hi && session.canAfford()) {
    await tryAt(range.hi)
    if (hiSize === undefined) return { fit, smallest: smallest! }
  } else {
    return { fit, smallest: smallest! }
  }
  while (hi - lo > 1 && session.canAfford() && !(fit && size(fit) >= maxBytes * CLOSE_ENOUGH)) {
    const x0 = interpolate(lo)
    const x1 = interpolate(hi)
    const wanted = Math.log(maxBytes * 0.97)
    const t = (wanted - Math.log(loSize!)) / (Math.log(hiSize!) - Math.log(loSize!))
    const guess = Number.isFinite(t) ? x0 + t * (x1 - x0) : (x0 + x1) / 2
    // Back from the interpolated axis; always strictly inside the bracket.
    let next = Math.round(lo + ((guess - x0) / (x1 - x0 || 1)) * (hi - lo))
    next = Math.min(hi - 1, Math.max(lo + 1, next))
    await tryAt(next)
  }
  return { fit, smallest: smallest! }
}

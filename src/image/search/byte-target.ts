import { losslessOf, type JobPlan } from '../plan.ts'
import type { Attempt, EncodeSession } from './session.ts'

/** The outcome of a byte-target search: the best attempt that fits, and the smallest one seen. */
export interface FitResult {
  readonly fit?: Attempt
  readonly smallest: Attempt
}

/** Good enough: within 10% under the target, where the quality steps allow. */
const CLOSE_ENOUGH = 0.9
const MIN_COLOURS = 2
const MAX_COLOURS = 256

const size = (attempt: Attempt) => attempt.encoded.data.length
const bytes = size
const smaller = (a: Attempt | undefined, b: Attempt) => (a && size(a) <= size(b) ? a : b)

/**
 * The highest value in [lo, hi] of a setting whose output shrinks as it falls (quality, palette
 * colours) that fits in `maxBytes`: bracket it, then step by interpolating the log of the size,
 * which is close to linear in both, so a few encodes land within 10% under the target.
 */
async function highestThatFits(
  session: EncodeSession,
  planAt: (value: number) => JobPlan,
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
    const attempt = await session.encode(planAt(value))
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

const LOSSY_QUALITY: ReadonlySet<JobPlan['format']> = new Set(['jpeg', 'webp', 'avif', 'tiff'])

/**
 * The byte-target search for one format, on the session's pixels, never below `floor`
 * (minQuality). Undefined when the session has no encode left to try.
 */
export async function fitBytes(
  session: EncodeSession,
  base: JobPlan,
  maxBytes: number,
  floor: number = 1,
): Promise<FitResult | undefined> {
  if (!session.hasEncodesLeft()) return undefined
  // The caller's own quality is the ceiling; without one, the best that fits, up to 100.
  const ceiling = Math.max(floor, base.goal?.ceiling ?? 100)
  if (base.format === 'png' && !base.lossless) return fitPalette(session, base, maxBytes, true, floor)
  if (base.format === 'gif') return fitPalette(session, base, maxBytes, false, floor)
  if (base.lossless || !LOSSY_QUALITY.has(base.format)) {
    // Lossless asked for, or alpha in TIFF: nothing to lower; it fits or it does not.
    const attempt = await session.encode(base)
    return { ...(size(attempt) <= maxBytes ? { fit: attempt } : {}), smallest: attempt }
  }
  const result = await highestThatFits(
    session,
    (quality) => ({ ...base, quality }),
    { lo: floor, hi: ceiling, start: Math.max(floor, Math.min(ceiling, base.quality ?? ceiling)) },
    maxBytes,
  )
  if (result) return result
  // Out of time before the search began: the floor is the one answer that may still fit.
  const lowest = await session.encode({ ...base, quality: floor })
  return { ...(size(lowest) <= maxBytes ? { fit: lowest } : {}), smallest: lowest }
}

/**
 * PNG: lossless first where it fits (best fidelity), then libimagequant's quality (the fewest
 * colours that reach it), then no dithering (dither noise costs bytes), then two colours. GIF
 * has no quality: its palette shrinks by colours, halving until it fits.
 */
async function fitPalette(
  session: EncodeSession,
  base: JobPlan,
  maxBytes: number,
  isPng: boolean,
  floor: number,
): Promise<FitResult> {
  let smallest: Attempt | undefined
  const consider = (result: FitResult | undefined) => {
    if (result && (!smallest || bytes(result.smallest) < bytes(smallest))) smallest = result.smallest
    return result?.fit
  }
  if (isPng) {
    const lossless = await session.encode(losslessOf(base))
    smallest = lossless
    if (bytes(lossless) <= maxBytes) return { fit: lossless, smallest }
  }
  const ceiling = base.goal?.ceiling ?? 100
  const fewestColours = Math.max(MIN_COLOURS, Math.round(floor * 2.56))
  const atFloor = isPng ? { ...base, quality: floor } : { ...base, colours: fewestColours }
  let fit = consider(
    isPng
      ? await highestThatFits(
          session,
          (quality) => ({ ...base, quality }),
          { lo: floor, hi: ceiling, start: Math.max(floor, Math.min(ceiling, base.quality ?? ceiling)) },
          maxBytes,
        )
      : await highestThatFits(
          session,
          (colours) => ({ ...base, colours }),
          { lo: fewestColours, hi: MAX_COLOURS, start: MAX_COLOURS },
          maxBytes,
          Math.log2,
        ),
  )
  if (!smallest) {
    // Out of time before the search began: the floor is the one answer that may still fit.
    const lowest = await session.encode(atFloor)
    smallest = lowest
    if (bytes(lowest) <= maxBytes) fit = lowest
  }
  if (fit) return { fit, smallest }
  // Dither noise costs bytes (fewer colours with dithering may not shrink a photo at all): the
  // floor without it, then, only where minQuality allows any quality, the fewest colours.
  const lastResorts =
    floor > 1
      ? [{ ...atFloor, dither: 0 }]
      : [
          { ...base, ...(isPng ? { quality: 1 } : { colours: MIN_COLOURS }), dither: 0 },
          { ...base, quality: isPng ? 1 : base.quality, colours: MIN_COLOURS, dither: 0 },
        ]
  for (const last of lastResorts) {
    if (!session.canAfford()) break
    const attempt = await session.encode(last)
    if (!smallest || bytes(attempt) < bytes(smallest)) smallest = attempt
    if (bytes(attempt) <= maxBytes) return { fit: attempt, smallest }
  }
  return { smallest: smallest! }
}

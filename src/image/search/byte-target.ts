import { losslessOf, type JobPlan } from '../plan.ts'
import type { Attempt, EncodeSession } from './session.ts'
import { highestThatFits, size, type FitResult } from './highest-that-fits.ts'
import { fitByProbes, probesCheaply } from './fit-by-probes.ts'

const MIN_COLOURS = 2
const MAX_COLOURS = 256
const bytes = size

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
  // With allowResize the floor goes first: when even it does not fit, the search moves to a
  // smaller size at once, instead of spending the time on higher qualities at this one (an
  // 11 MP JPEG XL once ran out of time there and never reached the sizes that fit).
  const start = base.goal?.allowResize ? floor : Math.max(floor, Math.min(ceiling, base.quality ?? ceiling))
  const range = { lo: floor, hi: ceiling, start }
  const result = probesCheaply(base)
    ? await fitByProbes(session, base, range, maxBytes)
    : await highestThatFits(session, (quality) => session.encode({ ...base, quality }), range, maxBytes)
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
          (quality) => session.encode({ ...base, quality }),
          { lo: floor, hi: ceiling, start: Math.max(floor, Math.min(ceiling, base.quality ?? ceiling)) },
          maxBytes,
        )
      : await highestThatFits(
          session,
          (colours) => session.encode({ ...base, colours }),
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

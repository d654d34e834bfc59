import { AppError } from '../errors/app-error.ts'
import type { OutputSize } from './limits.ts'
import { losslessOf, type JobPlan } from './plan.ts'

/**
 * CPU seconds per output megapixel, on the worst content measured (random noise), for the two
 * encoders that cannot be stopped once they start: libheif/aom for AVIF and libimagequant for
 * palette PNG and GIF. The job timeout answers the client but cannot free the worker, so these
 * encodes are bounded before they start instead. From bench/encode-cost.ts on one core
 * (bench/results/encode-cost.json), rounded up; efforts the bench did not time take the cost of
 * the next effort it did.
 */
const AVIF_SECONDS_PER_MP = [0.11, 0.21, 0.65, 1.05, 11, 15.5, 28, 60, 60, 160] as const
const PALETTE_SECONDS_PER_MP: Readonly<Record<number, number>> = {
  1: 0.37,
  2: 0.75,
  3: 0.75,
  4: 0.75,
  5: 4.8,
  6: 4.8,
  7: 4.8,
  8: 9.9,
  9: 9.9,
  10: 9.9,
}

export type Encoder = 'avif' | 'palette'

/** Which uninterruptible encoder a plan runs, if any. */
function encoderOf(plan: JobPlan): Encoder | undefined {
  if (plan.format === 'avif') return 'avif'
  if (plan.format === 'gif' || (plan.format === 'png' && !plan.lossless)) return 'palette'
  return undefined
}

function secondsPerMp(encoder: Encoder, effort: number): number {
  return encoder === 'avif' ? AVIF_SECONDS_PER_MP[effort]! : PALETTE_SECONDS_PER_MP[effort]!
}

/** The most output pixels an encode at `effort` may have within `budgetMs`. */
export function affordablePixels(encoder: Encoder, effort: number, budgetMs: number): number {
  return Math.floor((budgetMs / 1000 / secondsPerMp(encoder, effort)) * 1e6)
}

const LABEL: Record<Encoder, string> = { avif: 'AVIF', palette: 'palette (PNG or GIF)' }

/**
 * Keeps an uninterruptible encode within `budgetMs` of worst-case CPU time. When the caller left
 * the effort to the server, the effort is lowered until the encode fits (a larger file, not a
 * refusal; a PNG too large even at effort 1 is written lossless); an effort the caller asked for
 * is kept or refused with 422, naming what would fit.
 */
export function affordEncode(
  plan: JobPlan,
  out: OutputSize,
  effortGiven: boolean,
  budgetMs: number,
): JobPlan {
  const encoder = encoderOf(plan)
  if (!encoder || plan.effort === undefined) return plan
  const megapixels = (out.width * out.height * out.frames) / 1e6
  const fits = (effort: number) => secondsPerMp(encoder, effort) * megapixels * 1000 <= budgetMs
  if (fits(plan.effort)) return plan
  const lowest = encoder === 'avif' ? 0 : 1
  let effort = plan.effort - 1
  while (effort >= lowest && !fits(effort)) effort--
  if (!effortGiven && effort >= lowest) return { ...plan, effort }
  // Lossless PNG is written by libvips itself, which the job timeout can stop.
  if (!effortGiven && plan.format === 'png') return losslessOf(plan)
  const maxPixels = affordablePixels(encoder, plan.effort, budgetMs)
  const frames = out.frames > 1 ? ` x ${out.frames} frames` : ''
  const advice = effort >= lowest ? `ask for effort ${effort} or less, ` : ''
  throw new AppError(
    'IMAGE_TOO_LARGE',
    `expected a ${LABEL[encoder]} output of at most ${maxPixels} pixels at effort ${plan.effort} (its encoder cannot be stopped once started, so its work is bounded to ${budgetMs} ms), this request would produce ${out.width}x${out.height}${frames} = ${out.width * out.height * out.frames} pixels; ${advice}ask for a smaller width or height, or another format`,
  )
}

import { FORMAT_TABLE } from '../../formats/format-table.ts'
import type { StepFacts } from './context.ts'

/**
 * Pairs (earlier step, later step) that sharp may run in the other order without changing the
 * image, so they share a chain. Each says why.
 */
const SAME_EITHER_WAY: Readonly<Record<string, Readonly<Record<string, (facts: StepFacts) => boolean>>>> = {
  orient: {
    // extract() makes sharp orient first, and resize() swaps its box for a turned image.
    crop: () => true,
    resize: () => true,
    // A turn before a resize makes sharp orient before it too.
    rotate: () => true,
    // Orienting moves pixels; it does not change their colour or transparency.
    flatten: () => true,
    greyscale: () => true,
  },
  rotate: {
    // A mirror commutes with scaling; the fit's crop or letterbox still comes after it.
    resize: ({ plan }) => plan.rotate === undefined,
    // Moving pixels does not change their colour; only corners a turn fills with a colour would.
    greyscale: ({ plan }) =>
      plan.rotate === undefined || plan.rotate % 90 === 0 || FORMAT_TABLE[plan.format].alpha,
  },
  overlay: {
    // Laying over is associative: over an image flattened onto the background, or flattened after.
    flatten: () => true,
  },
  radius: {
    // Corners are cut out only where the output keeps alpha, and flattening is for outputs without it.
    flatten: () => true,
  },
  pad: {
    // The added pixels are opaque: flattening them changes nothing.
    flatten: () => true,
  },
  resize: {
    // A resize is a weighted sum: flattening before or after it mixes the same colours.
    flatten: () => true,
    // Grey of a mix is the mix of greys, within rounding at edges.
    greyscale: () => true,
  },
}

export function reorderable(earlier: string, later: string, facts: StepFacts): boolean {
  return SAME_EITHER_WAY[earlier]?.[later]?.(facts) ?? false
}

/*
 * What rendering an SVG may cost, in one place (these may become settings). Pixel limits do not
 * bound it: a 2 KB SVG of 10 nested groups, each <use>-ing the one below 10 times, asks for
 * 10^10 draws on a 100x100 canvas. librsvg stops on its own only at 1000000 elements parsed or
 * 500000 references followed, seconds of CPU later, and nothing stops one <use> of a large group
 * or a marker drawn at every vertex of a long path.
 *
 * Measured with sharp 0.35.5 (libvips 8.18, librsvg) on the 2-CPU development machine: drawing
 * 100000 elements takes 0.3-1.6 s (a <use>d group .. distinct <rect>s), 1000000 takes 3.4-17 s;
 * a marker of 100 elements on a 10000-vertex path (60 KB) takes 8.3 s; one blur over a
 * 1000x1000 canvas takes 0.2 s, so a blurred element <use>d 10000 times takes about half an hour.
 */

export const SVG_LIMITS = {
  /** Elements as written: stops huge flat documents (100000 <rect>s take 1.6 s to draw here). */
  maxElements: 100_000,
  /**
   * Elements drawn once <use>, markers and other url(#id) references are expanded: stops the
   * "billion laughs" of SVG (exponential <use> fan-out) and markers on very long paths.
   */
  maxRenderedElements: 100_000,
  /**
   * Filter primitives run once references are expanded, each over up to the whole canvas: stops
   * one expensive filtered element being drawn thousands of times.
   */
  maxFilterRuns: 100,
} as const

export type SvgLimits = { readonly [K in keyof typeof SVG_LIMITS]: number }

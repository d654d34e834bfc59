/*
 * What rendering an SVG may cost, in one place (these may become settings). Pixel limits do not
 * bound it: a 2 KB SVG of 10 nested groups, each <use>-ing the one below 10 times, asks for
 * 10^10 draws on a 100x100 canvas. librsvg stops on its own only at 1000000 elements parsed or
 * 500000 references followed, seconds of CPU later, and nothing stops one <use> of a large group,
 * a marker drawn at every vertex of a long path, or one long line of text.
 *
 * Measured with sharp 0.35.5 (libvips 8.18, librsvg) on the 2-CPU development machine: drawing
 * 100000 elements takes 0.3-1.6 s (a <use>d group .. distinct <rect>s), 1000000 takes 3.4-17 s;
 * a marker of 100 elements on a 10000-vertex path (60 KB) takes 8.3 s; 400000 path segments in
 * small paths take 1 s, a 10000-segment path <use>d 100 times 3.4 s; one blur over a 1000x1000
 * canvas takes 0.2 s, so a blurred element <use>d 10000 times takes about half an hour.
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
   * Path vertices drawn, references expanded, counted as numbers plus commands (2-3 per real
   * vertex): stops a long path being <use>d or marked thousands of times.
   */
  maxRenderedVertices: 1_000_000,
  /**
   * Characters in one run of text: librsvg lays out a run in more than linear time (2000
   * characters 0.09 s, 5000 1.0 s, 10000 5.5 s), so 10 KB of text in one line is seconds.
   */
  maxTextRunCharacters: 2_000,
  /** Characters of text drawn, references expanded: stops a text being <use>d thousands of times. */
  maxRenderedTextCharacters: 100_000,
  /**
   * Filter primitives run once references are expanded, each over up to the whole canvas: stops
   * one expensive filtered element being drawn thousands of times.
   */
  maxFilterRuns: 100,
} as const

export type SvgLimits = { readonly [K in keyof typeof SVG_LIMITS]: number }

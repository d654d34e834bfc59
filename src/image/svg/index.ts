/*
 * The SVG screen: what every SVG upload passes before any parser sees it (external references,
 * entities, encodings, drawing cost). The only file of this folder that others import.
 */
export { screenSvg } from './guard.ts'
export { SVG_LIMITS, type SvgLimits } from './limits.ts'

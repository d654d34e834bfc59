/*
 * The searches (a byte target, a similarity level, the best format) and what they own: pixels
 * decoded once and encoded many times, and the similarity they are scored by. The only file of
 * this folder that others import.
 */
export { searchEncode, type SearchOptions, type SearchOutcome } from './search.ts'
export { AUTO_LEVELS, MIN_QUALITY } from './auto-quality.ts'
export {
  measureSimilarity,
  prepareReference,
  scoreCandidate,
  toLumaPlane,
  type PreparedReference,
  type Similarity,
} from './similarity.ts'
export { decodePixels, encodePixels, type Pixels } from './pixels.ts'

import { AppError } from '../../errors/app-error.ts'
import type { EncodedImage, PipelineOptions } from '../pipeline.ts'
import { decodePixels, scalePixels, type Pixels } from '../pixels.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import { fitBytes, type FitResult } from './byte-target.ts'
import { EncodeSession, type Attempt } from './session.ts'

export interface SearchOptions extends PipelineOptions {
  /** Monotonic time by which the search returns its best so far. */
  readonly deadline: number
  readonly maxEncodes: number
}

export interface SearchOutcome {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
  readonly encodes: number
  /** Set when allowResize scaled the image down to meet maxBytes. */
  readonly resizedTo?: { readonly width: number; readonly height: number }
}

/** Scale-downs tried under allowResize before giving up. */
const RESIZE_ROUNDS = 3

const bytes = (attempt: Attempt) => attempt.encoded.data.length

function unreachable(maxBytes: number, smallest: number, resizable: boolean): AppError {
  const advice = resizable
    ? 'raise maxBytes, or ask for a smaller width or height'
    : 'raise maxBytes, ask for a smaller width or height or another format, or allow allowResize=true'
  return new AppError(
    'TARGET_UNREACHABLE',
    `expected an output of at most ${maxBytes} bytes, the smallest reached was ${smallest} bytes; ${advice}`,
    { smallestBytes: smallest },
  )
}

/** The byte target over the candidates: the first (most preferred) that fits. */
async function fitCandidates(session: EncodeSession, candidates: readonly JobPlan[], maxBytes: number) {
  let smallest: Attempt | undefined
  for (const plan of candidates) {
    if (!session.canAfford()) break
    const result: FitResult = await fitBytes(session, plan, maxBytes)
    if (!smallest || bytes(result.smallest) < bytes(smallest)) smallest = result.smallest
    if (result.fit) return { fit: result.fit, smallest }
  }
  return { smallest }
}

/**
 * Decodes and transforms once, then encodes as many candidates as the goal needs, within the
 * deadline and the encode budget. Candidates are plans of one image in different formats, in
 * order of preference; they share the transform (flattening is applied per encode).
 */
export async function searchEncode(
  input: Uint8Array,
  probe: ImageProbe,
  candidates: readonly JobPlan[],
  options: SearchOptions,
): Promise<SearchOutcome> {
  const first = candidates[0]!
  const goal = first.goal!
  let pixels: Pixels = await decodePixels(input, probe, { ...first, flatten: false }, options)
  let session = new EncodeSession(pixels, probe, options)
  if (goal.maxBytes === undefined) throw new Error('searchEncode: no goal it knows')
  const original = { width: pixels.width, height: pixels.height }
  for (let round = 0; ; round++) {
    const { fit, smallest } = await fitCandidates(session, candidates, goal.maxBytes)
    if (fit) {
      const resized = pixels.width !== original.width || pixels.height !== original.height
      return {
        plan: fit.plan,
        encoded: fit.encoded,
        encodes: session.count,
        ...(resized ? { resizedTo: { width: pixels.width, height: pixels.height } } : {}),
      }
    }
    const reached = smallest ? bytes(smallest) : 0
    if (!goal.allowResize || round >= RESIZE_ROUNDS || !smallest || !session.canAfford() || pixels.width <= 1)
      throw unreachable(goal.maxBytes, reached, goal.allowResize)
    // Bytes fall roughly with the pixel count: aim a little under.
    const scale = Math.sqrt(goal.maxBytes / reached) * 0.9
    pixels = await scalePixels(pixels, Math.max(1, Math.floor(pixels.width * Math.min(scale, 0.9))))
    session = session.withPixels(pixels)
  }
}

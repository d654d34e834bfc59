import { AppError } from '../../errors/app-error.ts'
import type { EncodedImage, PipelineOptions } from '../pipeline.ts'
import { decodePixels, firstFrame, pixelsImage, scalePixels, type Pixels } from '../pixels.ts'
import type { AutoQuality } from '../../options/schema.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import {
  comparisonSize,
  prepareReference,
  scoreCandidate,
  type PreparedReference,
  type Similarity,
} from '../similarity.ts'
import {
  aimFor,
  COARSE_TOLERANCE,
  lowestQualityThatLooksTheSame,
  EFFORT_COST_FACTOR,
  probeEffort,
  type Scored,
} from './auto-quality.ts'
import { fitBytes } from './byte-target.ts'
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
  readonly similarity: Similarity
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

/** The luma reference a candidate is judged against: its own flattening, since JPEG's background shows. */
function referenceFor(pixels: Pixels, plan: JobPlan, cache: Map<string, Promise<PreparedReference>>) {
  const still = firstFrame(pixels)
  const key = plan.flatten ? plan.background : 'alpha'
  let reference = cache.get(key)
  if (!reference) {
    const image = pixelsImage(still)
    reference = prepareReference(plan.flatten ? image.flatten({ background: plan.background }) : image)
    cache.set(key, reference)
  }
  return reference
}

/**
 * format=auto with a level: each candidate's lowest quality that reaches the level, found on a
 * preview of at most 1 megapixel, then the smallest of those (the highest score when none
 * does). Scores compare formats fairly where quality numbers do not; the preview keeps the
 * comparison cheap, and its quality is an upper bound for the full size's (a downscale hides
 * artefacts), where the search then continues.
 */
async function chooseFormat(session: EncodeSession, candidates: readonly JobPlan[], level: AutoQuality) {
  const still = firstFrame(session.pixels)
  const size = comparisonSize(still.width, still.height)
  const preview = size.width < still.width ? await scalePixels(still, size.width) : still
  const previewSession = session.withPixels(preview)
  const references = new Map<string, Promise<PreparedReference>>()
  const target = aimFor(level)
  const passes = (s: Scored) => s.similarity.score >= target
  let chosen: { scored: Scored; final: Attempt; bytes: number } | undefined
  for (const plan of candidates) {
    if (chosen && !previewSession.canAfford()) break
    const reference = await referenceFor(preview, plan, references)
    const scored = await lowestQualityThatLooksTheSame(
      previewSession,
      plan,
      level,
      reference,
      undefined,
      preview === still ? undefined : COARSE_TOLERANCE,
    )
    // Sizes compare at the effort asked for (low-effort probes would misjudge AVIF by a third),
    // when there is time for it.
    const final =
      scored.plan.lossless ||
      probeEffort(scored.plan) === plan.effort ||
      !previewSession.canAffordMs(previewSession.lastEncodeMs * EFFORT_COST_FACTOR[plan.format])
        ? scored
        : await previewSession.encode({ ...scored.plan, effort: plan.effort })
    const candidate = { scored, final, bytes: bytes(final) }
    if (
      !chosen ||
      (passes(scored) && (!passes(chosen.scored) || candidate.bytes < chosen.bytes)) ||
      (!passes(scored) && !passes(chosen.scored) && scored.similarity.score > chosen.scored.similarity.score)
    )
      chosen = candidate
  }
  const plan = { ...chosen!.scored.plan, effort: chosen!.final.plan.effort }
  // When the preview is the image itself, its encode at the effort asked for is the answer.
  const final =
    preview === session.pixels
      ? { ...chosen!.final, similarity: await scoreFinal(chosen!, references, preview) }
      : undefined
  const answer = final && !keepsLevel(final, chosen!.scored, level) ? chosen!.scored : final
  return { plan, answer }
}

async function scoreFinal(
  chosen: { scored: Scored; final: Attempt },
  references: Map<string, Promise<PreparedReference>>,
  pixels: Pixels,
): Promise<Similarity> {
  if (chosen.final === chosen.scored) return chosen.scored.similarity
  return scoreCandidate(await referenceFor(pixels, chosen.final.plan, references), chosen.final.encoded.data)
}

/**
 * quality=auto on the full size: the lowest quality whose output, scaled to the metric's size,
 * reaches the level, searched at a low effort, then encoded once at the effort asked for and
 * scored as it is returned.
 */
async function looksTheSame(
  session: EncodeSession,
  candidates: readonly JobPlan[],
  level: AutoQuality,
): Promise<Scored> {
  const choice = candidates.length > 1 ? await chooseFormat(session, candidates, level) : undefined
  if (choice?.answer) return choice.answer
  const plan = choice?.plan ?? candidates[0]!
  const reference = await referenceFor(session.pixels, plan, new Map())
  const start = choice ? plan.quality : undefined
  const found = await lowestQualityThatLooksTheSame(session, plan, level, reference, start)
  if (found.plan.lossless || probeEffort(plan) === plan.effort) return found
  // Near the deadline, the probe (a lower effort, at the same level) is the answer.
  if (!session.canAffordMs(session.lastEncodeMs * EFFORT_COST_FACTOR[plan.format])) return found
  const final = await session.encode({ ...found.plan, effort: plan.effort })
  const scored = { ...final, similarity: await scoreCandidate(reference, final.encoded.data) }
  // A higher effort may land a hair under the level the probe reached: the probe is then the answer.
  return keepsLevel(scored, found, level) ? scored : found
}

const keepsLevel = (final: Scored, probe: Scored, level: AutoQuality) =>
  final.similarity.score >= aimFor(level) || probe.similarity.score < aimFor(level)

/**
 * With allowResize, the lowest quality a byte target may use before the image is scaled down
 * instead: a smaller picture at a decent quality looks better than blocks at full size. Palette
 * formats read it as a share of 256 colours.
 */
const RESIZE_FLOOR: Readonly<Record<JobPlan['format'], number>> = {
  jpeg: 50,
  webp: 50,
  avif: 40,
  tiff: 50,
  png: 40,
  gif: 12,
}

/** The byte target over the candidates: the first (most preferred) that fits. */
async function fitCandidates(
  session: EncodeSession,
  candidates: readonly JobPlan[],
  maxBytes: number,
  resizing: boolean,
) {
  let smallest: Attempt | undefined
  for (const plan of candidates) {
    if (smallest && !session.canAfford()) break
    const result = await fitBytes(session, plan, maxBytes, resizing ? RESIZE_FLOOR[plan.format] : 1)
    if (!smallest || bytes(result.smallest) < bytes(smallest)) smallest = result.smallest
    if (result.fit) return { fit: result.fit, smallest }
  }
  return { smallest: smallest! }
}

/** maxBytes on the full pixels, scaling them down under allowResize when nothing fits. */
async function meetTarget(session: EncodeSession, candidates: readonly JobPlan[], maxBytes: number) {
  const goal = candidates[0]!.goal!
  for (let round = 0; ; round++) {
    // The last round may use any quality: some answer beats none.
    const floored = goal.allowResize && round < RESIZE_ROUNDS
    const { fit, smallest } = await fitCandidates(session, candidates, maxBytes, floored)
    if (fit) return { attempt: fit, session }
    const reached = bytes(smallest)
    if (!goal.allowResize || round >= RESIZE_ROUNDS || !session.canAfford() || session.pixels.width <= 1)
      throw unreachable(maxBytes, reached, goal.allowResize)
    // Bytes fall roughly with the pixel count; aim a little under, at the same quality as before.
    const scale = Math.min(0.9, Math.sqrt(maxBytes / reached) * 0.9)
    const width = Math.max(1, Math.floor(session.pixels.width * scale))
    session = session.withPixels(await scalePixels(session.pixels, width))
  }
}

/**
 * Decodes and transforms once, then encodes as many candidates as the goal needs, within the
 * deadline and the encode budget. Candidates are plans of one image in different formats, in
 * order of preference, sharing the transform (flattening is applied per encode). The answer
 * carries the similarity of what is returned, measured on the full-size encode.
 */
export async function searchEncode(
  input: Uint8Array,
  probe: ImageProbe,
  candidates: readonly JobPlan[],
  options: SearchOptions,
): Promise<SearchOutcome> {
  const goal = candidates[0]!.goal!
  const pixels = await decodePixels(input, probe, { ...candidates[0]!, flatten: false }, options)
  let session = EncodeSession.start(pixels, probe, options)
  const found = goal.level ? await looksTheSame(session, candidates, goal.level) : undefined
  let attempt: Attempt | undefined = found
  let similarity: Similarity | undefined = found?.similarity
  if (goal.maxBytes !== undefined && !(found && bytes(found) <= goal.maxBytes)) {
    // Below the quality that looks the same, never above it.
    const ceiling = Math.min(goal.ceiling ?? 100, found?.plan.quality ?? 100)
    const plans = found ? [{ ...found.plan, goal: { ...goal, ceiling } }] : candidates
    const fitted = await meetTarget(session, plans, goal.maxBytes)
    attempt = fitted.attempt
    session = fitted.session
    similarity = undefined
  }
  if (!attempt) attempt = await session.encode(candidates[0]!)
  const resized = session.pixels !== pixels
  similarity ??= await scoreCandidate(
    await referenceFor(session.pixels, attempt.plan, new Map()),
    attempt.encoded.data,
  )
  return {
    plan: attempt.plan,
    encoded: attempt.encoded,
    encodes: session.count,
    similarity,
    ...(resized ? { resizedTo: { width: session.pixels.width, height: session.pixels.height } } : {}),
  }
}

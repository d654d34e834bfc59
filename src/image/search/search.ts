import type { EncodedImage, PipelineOptions } from '../pipeline.ts'
import { decodePixels, type Pixels } from './pixels.ts'
import type { AutoQuality } from '../../options/schema.ts'
import type { JobClock } from '../job-clock.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import { scoreCandidate, type Similarity } from './similarity.ts'
import { aimFor, effortCostFactor, lowestQualityThatLooksTheSame, type Scored } from './auto-quality.ts'
import { chooseFormat } from './choose-format.ts'
import { meetTarget } from './meet-target.ts'
import { referenceFor, type References } from './reference.ts'
import { EncodeSession, type Attempt, type OfferBest } from './session.ts'

export interface SearchOptions extends PipelineOptions {
  /** How the job's time is counted (image/job-clock.ts). */
  readonly clock: JobClock
  /** The time on `clock` by which the search returns its best so far. */
  readonly deadline: number
  readonly maxEncodes: number
  /**
   * Told of each better answer that meets the request (within maxBytes, at the level), as the
   * search finds it: what a worker killed at the job's hard limit can still answer with.
   */
  readonly onBest?: (best: BestSoFar) => void
}

/** An answer found on the way: a byte target's fit is not scored, so its similarity may be unknown. */
export type BestSoFar = Omit<SearchOutcome, 'similarity'> & { readonly similarity?: Similarity }

export interface SearchOutcome {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
  readonly encodes: number
  readonly similarity: Similarity
  /**
   * False when format=auto found no candidate that reaches the level: the answer is then the
   * smallest candidate tried, which may be larger than the input.
   */
  readonly reachedLevel: boolean
  /** Set when allowResize scaled the image down to meet maxBytes. */
  readonly resizedTo?: { readonly width: number; readonly height: number }
}

/** Share of the encodes format=auto may spend choosing a format on the preview. */
const CHOOSING_SHARE = 0.6
/** Encodes a level search leaves for a byte target that follows it. */
const TARGET_RESERVE = 5

const bytes = (attempt: Attempt) => attempt.encoded.data.length

interface Reached extends Scored {
  readonly reached: boolean
}

/**
 * format=auto when no format reaches the level on the preview: each format's best at full
 * size, smallest first, until one is no larger than the input; else the smallest seen.
 */
async function closestWithinInput(
  session: EncodeSession,
  plans: readonly JobPlan[],
  inputBytes: number,
): Promise<Reached> {
  const references: References = new Map()
  let smallest: Scored | undefined
  for (const plan of plans) {
    if (smallest && !session.canAfford()) break
    const attempt = await session.encode(plan)
    const reference = await referenceFor(session.pixels, plan, references)
    const scored = { ...attempt, similarity: await scoreCandidate(reference, attempt.encoded.data) }
    if (bytes(scored) <= inputBytes) return { ...scored, reached: false }
    if (!smallest || bytes(scored) < bytes(smallest)) smallest = scored
  }
  return { ...smallest!, reached: false }
}

/**
 * quality=auto on the full size: for format=auto, the format chosen on a preview first; then
 * the lowest quality whose output, scaled to the metric's size, reaches the level, searched at
 * a low effort, then encoded once at the effort asked for and scored as it is returned.
 */
async function reachLevel(
  session: EncodeSession,
  candidates: readonly JobPlan[],
  level: AutoQuality,
  inputBytes: number,
): Promise<Reached> {
  const choice =
    candidates.length > 1
      ? await chooseFormat(
          session.limitedTo(Math.floor(session.encodesLeft * CHOOSING_SHARE)),
          candidates,
          level,
        )
      : undefined
  if (choice?.answer) return { ...choice.answer, reached: true }
  if (choice?.unreached) return closestWithinInput(session, choice.unreached, inputBytes)
  const plan = choice?.plan ?? candidates[0]!
  // Made while the sample is searched: libvips scales it on another thread meanwhile. A failure
  // is caught here only so that it is not reported unhandled before the search awaits it.
  const reference = referenceFor(session.pixels, plan)
  reference.catch(() => {})
  const start = choice ? plan.quality : undefined
  const found = await lowestQualityThatLooksTheSame(session, plan, level, reference, start)
  const reached = found.similarity.score >= aimFor(level)
  if (found.plan.lossless || found.plan.effort === plan.effort) return { ...found, reached }
  // Near the deadline, the probe (a lower effort, at the same level) is the answer.
  if (!session.canAffordMs(session.lastEncodeMs * effortCostFactor(plan))) return { ...found, reached }
  const final = await session.encode({ ...found.plan, effort: plan.effort })
  const scored = { ...final, similarity: await scoreCandidate(await reference, final.encoded.data) }
  // A higher effort may land a hair under the level the probe reached: the probe is then the answer.
  const keeps = scored.similarity.score >= aimFor(level) || !reached
  if (keeps && reached) session.offer(scored, scored.similarity)
  return { ...(keeps ? scored : found), reached }
}

/** The offers a search makes, filtered to those that meet the whole request, passed on as outcomes. */
function bestReporter(
  goal: NonNullable<JobPlan['goal']>,
  original: Pixels,
  count: () => number,
  onBest: NonNullable<SearchOptions['onBest']>,
): OfferBest {
  return (attempt, pixels, similarity) => {
    if (goal.maxBytes !== undefined && bytes(attempt) > goal.maxBytes) return
    if (goal.level && !(similarity && similarity.score >= aimFor(goal.level))) return
    onBest({
      plan: attempt.plan,
      encoded: attempt.encoded,
      encodes: count(),
      ...(similarity ? { similarity } : {}),
      reachedLevel: true,
      ...(pixels !== original ? { resizedTo: { width: pixels.width, height: pixels.height } } : {}),
    })
  }
}

/**
 * Decodes and transforms once, then encodes as many candidates as the goal needs, within the
 * deadline and the encode cap. Candidates are plans of one image in different formats, in
 * order of preference, sharing the transform (flattening is applied per encode). A level and a
 * byte target together mean "the level, within the budget": the level's search leaves encodes
 * for the target's. The answer carries the similarity of what is returned, measured on the
 * full-size encode.
 */
export async function searchEncode(
  input: Uint8Array,
  probe: ImageProbe,
  candidates: readonly JobPlan[],
  options: SearchOptions,
): Promise<SearchOutcome> {
  const goal = candidates[0]!.goal!
  const pixels = await decodePixels(input, probe, { ...candidates[0]!, flatten: false }, options)
  let session: EncodeSession | undefined
  const offerBest = options.onBest && bestReporter(goal, pixels, () => session?.count ?? 0, options.onBest)
  session = EncodeSession.start(pixels, probe, { ...options, offerBest })
  const reserve = goal.maxBytes !== undefined ? TARGET_RESERVE : 0
  const found = goal.level
    ? await reachLevel(session.leaving(reserve), candidates, goal.level, input.length)
    : undefined
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
  const resized = session.pixels !== pixels
  similarity ??= await scoreCandidate(
    await referenceFor(session.pixels, attempt!.plan),
    attempt!.encoded.data,
  )
  return {
    plan: attempt!.plan,
    encoded: attempt!.encoded,
    encodes: session.count,
    similarity,
    reachedLevel: found?.reached ?? true,
    ...(resized ? { resizedTo: { width: session.pixels.width, height: session.pixels.height } } : {}),
  }
}

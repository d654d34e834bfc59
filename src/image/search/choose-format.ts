import { firstFrame, scalePixels, type Pixels } from './pixels.ts'
import type { AutoQuality } from '../../options/schema.ts'
import type { JobPlan } from '../plan.ts'
import { comparisonSize, scoreCandidate, type Similarity } from './similarity.ts'
import {
  aimFor,
  COARSE_TOLERANCE,
  effortCostFactor,
  lowestQualityThatLooksTheSame,
  type Scored,
} from './auto-quality.ts'
import { referenceFor, type References } from './reference.ts'
import type { Attempt, EncodeSession } from './session.ts'

/** One candidate format's best showing on the preview. */
interface Showing {
  readonly scored: Scored
  /** The same settings at the effort asked for, when there was time: what sizes compare on. */
  readonly final: Attempt
  readonly bytes: number
}

export interface FormatChoice {
  /** The winner's settings, its quality an upper bound for the full size's. */
  readonly plan: JobPlan
  /** Set when no candidate reached the level: the full-size search must then weigh every format. */
  readonly unreached?: readonly JobPlan[]
  /** When the preview is the image itself, the winner's encode is the answer. */
  readonly answer?: Scored
}

const bytesOf = (attempt: Attempt) => attempt.encoded.data.length

/** The winner: the smallest that reaches the level. Undefined when none does. */
function smallestPassing(showings: readonly Showing[], target: number): Showing | undefined {
  const passing = showings.filter((s) => s.scored.similarity.score >= target)
  return passing.reduce<Showing | undefined>(
    (best, s) => (!best || s.bytes < best.bytes ? s : best),
    undefined,
  )
}

async function scoreFinal(showing: Showing, references: References, pixels: Pixels): Promise<Similarity> {
  if (showing.final === showing.scored) return showing.scored.similarity
  return scoreCandidate(
    await referenceFor(pixels, showing.final.plan, references),
    showing.final.encoded.data,
  )
}

/**
 * format=auto with a level: each candidate's lowest quality that reaches the level, found on a
 * preview of at most 1 megapixel, then the smallest of those. Scores compare formats fairly
 * where quality numbers do not; the preview keeps the comparison cheap, and its quality is an
 * upper bound for the full size's (a downscale hides artefacts), where the search continues.
 * The session given is this stage's share of the encodes: candidates it cannot afford are
 * skipped, the first excepted.
 */
export async function chooseFormat(
  session: EncodeSession,
  candidates: readonly JobPlan[],
  level: AutoQuality,
): Promise<FormatChoice> {
  const still = firstFrame(session.pixels)
  const size = comparisonSize(still.width, still.height)
  const preview = size.width < still.width ? await scalePixels(still, size.width) : still
  const previewSession = session.withPixels(preview, preview !== session.pixels)
  const references: References = new Map()
  const showings: Showing[] = []
  for (const plan of candidates) {
    if (!previewSession.canAfford()) break
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
      scored.plan.effort === plan.effort ||
      !previewSession.canAffordMs(previewSession.lastEncodeMs * effortCostFactor(plan))
        ? scored
        : await previewSession.encode({ ...scored.plan, effort: plan.effort })
    showings.push({ scored, final, bytes: bytesOf(final) })
  }
  if (showings.length === 0) return { plan: candidates[0]!, unreached: candidates }
  const winner = smallestPassing(showings, aimFor(level))
  if (!winner) {
    // None reaches the level: each format's best, smallest first, for the full size to weigh.
    const byBytes = [...showings].sort((a, b) => a.bytes - b.bytes)
    const plans = byBytes.map((s) => ({ ...s.scored.plan, effort: s.final.plan.effort }))
    return { plan: plans[0]!, unreached: plans }
  }
  const plan = { ...winner.scored.plan, effort: winner.final.plan.effort }
  if (preview !== session.pixels) return { plan }
  const final = { ...winner.final, similarity: await scoreFinal(winner, references, preview) }
  // A higher effort may land a hair under the level the probe reached: the probe is then the answer.
  return { plan, answer: final.similarity.score >= aimFor(level) ? final : winner.scored }
}

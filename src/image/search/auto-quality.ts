import { searchFormat, type SearchFormat } from '../../formats/format-table.ts'
import type { AutoQuality } from '../../options/schema.ts'
import { losslessOf, type JobPlan } from '../plan.ts'
import { scoreCandidate, type PreparedReference, type Similarity } from './similarity.ts'
import type { Attempt, EncodeSession } from './session.ts'

/**
 * The similarity each auto level aims for: SSIM of the output's luma (BT.601) against the
 * transformed input's, both scaled to at most 1 megapixel, computed by similarity.ts. `auto`
 * is meant to be indistinguishable side by side; the others trade visible but small losses for
 * bytes. On the corpus photos, JPEG at quality 80 scores 0.93 to 0.99.
 */
export const AUTO_LEVELS: Readonly<Record<AutoQuality, number>> = {
  auto: 0.99,
  'auto-high': 0.98,
  'auto-medium': 0.95,
  'auto-low': 0.9,
}

/** Where each format's search starts, per level: the median answer on the corpus photos. */
const START: Readonly<Record<SearchFormat, Readonly<Record<AutoQuality, number>>>> = {
  jpeg: { auto: 92, 'auto-high': 86, 'auto-medium': 72, 'auto-low': 50 },
  tiff: { auto: 92, 'auto-high': 86, 'auto-medium': 72, 'auto-low': 50 },
  webp: { auto: 90, 'auto-high': 84, 'auto-medium': 70, 'auto-low': 45 },
  avif: { auto: 80, 'auto-high': 72, 'auto-medium': 58, 'auto-low': 45 },
  png: { auto: 95, 'auto-high': 85, 'auto-medium': 65, 'auto-low': 45 },
  gif: { auto: 100, 'auto-high': 100, 'auto-medium': 100, 'auto-low': 100 },
}

/**
 * The score a search aims for: a little above the level, so that another implementation of the
 * metric (scikit-image, another scaler) does not find it a hair under. A hundredth of the
 * allowed loss: 0.9901 for auto, 0.9505 for auto-medium.
 */
export function aimFor(level: AutoQuality): number {
  return 1 - (1 - AUTO_LEVELS[level]) * 0.99
}

const TOLERANCE = 2
/** Choosing between formats needs less precision: the winner is searched again, finely. */
export const COARSE_TOLERANCE = 6
/** d ln(1 - SSIM) / d quality on the corpus photos, for the first step before there are two points. */
const TYPICAL_SLOPE = -0.035

/**
 * The lowest quality each level may choose, whatever the score: SSIM on luma misses blocking in
 * smooth areas (a dusk sky scored 0.95 at JPEG quality 17), so the levels stop above it. The
 * docs and the README show this table.
 */
export const MIN_QUALITY: Readonly<Record<SearchFormat, Readonly<Record<AutoQuality, number>>>> = {
  jpeg: { auto: 70, 'auto-high': 60, 'auto-medium': 45, 'auto-low': 30 },
  tiff: { auto: 70, 'auto-high': 60, 'auto-medium': 45, 'auto-low': 30 },
  webp: { auto: 70, 'auto-high': 60, 'auto-medium': 45, 'auto-low': 30 },
  avif: { auto: 55, 'auto-high': 45, 'auto-medium': 35, 'auto-low': 25 },
  png: { auto: 70, 'auto-high': 55, 'auto-medium': 40, 'auto-low': 25 },
  gif: { auto: 100, 'auto-high': 100, 'auto-medium': 100, 'auto-low': 100 },
}

export interface Scored extends Attempt {
  readonly similarity: Similarity
}

/**
 * The effort a probe encodes at. The score at a given quality barely moves with effort (AVIF at
 * effort 0 scores within 0.01 of effort 4, a little lower, so the search errs towards quality)
 * while the time falls 25-fold for AVIF: probes search fast, and the answer is encoded once at
 * the effort asked for.
 */
/** How much slower the effort asked for is than a probe's (measured: bench/encode-cost.ts, rounded up). */
export const EFFORT_COST_FACTOR: Readonly<Record<SearchFormat, number>> = {
  avif: 30,
  webp: 2,
  png: 1,
  gif: 1,
  jpeg: 1,
  tiff: 1,
}

export function probeEffort(plan: JobPlan): number | undefined {
  if (plan.effort === undefined) return undefined
  if (plan.format === 'avif') return 0
  if (plan.format === 'webp') return Math.min(plan.effort, 2)
  // A palette's colours change with effort, and its score with them (0.990 at effort 3 fell to
  // 0.985 at 7), for only a third of the time saved: palettes are searched as they are encoded.
  return plan.effort
}

/** Encodes `plan` and scores it against the reference, counting both into the session's clock. */
async function encodeAndScore(
  session: EncodeSession,
  plan: JobPlan,
  reference: PreparedReference,
): Promise<Scored> {
  const started = performance.now()
  const attempt = await session.encode(plan)
  const similarity = await scoreCandidate(reference, attempt.encoded.data)
  session.note(performance.now() - started)
  return { ...attempt, similarity }
}

const probe = (session: EncodeSession, base: JobPlan, quality: number, reference: PreparedReference) =>
  encodeAndScore(session, { ...base, quality, effort: probeEffort(base) }, reference)

/**
 * The lowest quality whose output scores at least the level's target: a secant search on
 * ln(1 - score), bracketing the target and closing in until the bracket is two quality steps
 * wide. Returns the lowest passing attempt found; when even 100 falls short, PNG's lossless
 * encode, or the best attempt for the other formats (the score is then reported as it is).
 */
export async function lowestQualityThatLooksTheSame(
  session: EncodeSession,
  base: JobPlan,
  level: AutoQuality,
  reference: PreparedReference,
  start: number = START[searchFormat(base.format)][level],
  tolerance: number = TOLERANCE,
): Promise<Scored> {
  if (base.lossless) return encodeAndScore(session, base, reference)
  const target = aimFor(level)
  let pass: Scored | undefined
  let fail: Scored | undefined
  let best: Scored | undefined
  const record = (scored: Scored) => {
    if (!best || scored.similarity.score > best.similarity.score) best = scored
    if (scored.similarity.score >= target) {
      if (!pass || scored.plan.quality! < pass.plan.quality!) {
        pass = scored
        session.offer(scored, scored.similarity)
      }
    } else if (!fail || scored.plan.quality! > fail.plan.quality!) fail = scored
    return scored
  }
  // ln(1 - score) falls close to linearly with quality: secant steps on it converge in 2 or 3.
  const lnLoss = (scored: Scored) => Math.log(Math.max(1e-6, 1 - scored.similarity.score))
  const goal = Math.log(1 - target)
  const probes: Scored[] = []
  const floor = MIN_QUALITY[searchFormat(base.format)][level]
  let quality = Math.max(floor, start)
  probes.push(record(await probe(session, base, quality, reference)))
  // GIF has no quality to search: one encode says how close it comes.
  if (base.quality === undefined) return best!
  while (session.canAfford()) {
    const lo = fail?.plan.quality ?? floor - 1
    const hi = pass?.plan.quality ?? 101
    // Two quality steps apart is close enough: the next step saves about 2% of the bytes.
    if (hi - lo <= tolerance || (!pass && lo >= 100)) break
    const [a, b] = pass && fail ? [fail, pass] : [probes.at(-2), probes.at(-1)!]
    const slope =
      a && a.plan.quality !== b.plan.quality
        ? (lnLoss(b) - lnLoss(a)) / (b.plan.quality! - a.plan.quality!)
        : TYPICAL_SLOPE
    const next = b.plan.quality! + (goal - lnLoss(b)) / (slope < 0 ? slope : TYPICAL_SLOPE)
    quality = Math.min(hi - 1, Math.max(lo + 1, Math.min(100, Math.max(1, Math.round(next)))))
    probes.push(record(await probe(session, base, quality, reference)))
  }
  if (pass || base.format !== 'png' || !session.canAfford()) return pass ?? best!
  // No palette looks the same: PNG's answer is then its lossless encode, which always does.
  return encodeAndScore(session, losslessOf(base), reference)
}

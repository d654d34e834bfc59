import { searchFormat, type SearchFormat } from '../../formats/format-table.ts'
import type { AutoQuality } from '../../options/schema.ts'
import { losslessOf, type JobPlan } from '../plan.ts'
import { paletteIsFull } from '../png-chunks.ts'
import { deflatePng } from '../png-deflate.ts'
import { primeReference, scoreCandidate, type PreparedReference } from './similarity.ts'
import { crossing, slopeNear } from './guide.ts'
import { pointOf, Probes, secantSearch, type SearchRange } from './secant.ts'
import { sampleOf } from './sample.ts'
import type { EncodeSession, Scored } from './session.ts'

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
  webp: { auto: 93, 'auto-high': 84, 'auto-medium': 70, 'auto-low': 45 },
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

export type { Scored } from './session.ts'

/**
 * The effort a probe encodes at. The score at a given quality barely moves with effort (AVIF at
 * effort 0 scores within 0.01 of effort 4, a little lower, so the search errs towards quality)
 * while the time falls 25-fold for AVIF: probes search fast, and the answer is encoded once at
 * the effort asked for.
 */
/**
 * How much slower AVIF at each effort is than at a probe's (effort 0), in CPU time at equal
 * similarity: bench/avif-effort's medians at 2-24 MP, rounded up; past 4, doubling each step.
 */
const AVIF_COST_BY_EFFORT: readonly number[] = [1, 3, 6, 7, 40]

/** How much slower the plan's own effort is than a probe's (measured, rounded up). */
export function effortCostFactor(plan: JobPlan): number {
  const format = searchFormat(plan.format)
  if (format === 'webp') return 2
  if (format !== 'avif' || plan.effort === undefined) return 1
  const last = AVIF_COST_BY_EFFORT.length - 1
  return plan.effort <= last
    ? AVIF_COST_BY_EFFORT[plan.effort]!
    : AVIF_COST_BY_EFFORT[last]! * 2 ** (plan.effort - last)
}

export function probeEffort(plan: JobPlan): number | undefined {
  if (plan.effort === undefined) return undefined
  if (plan.format === 'avif') return 0
  if (plan.format === 'webp') return Math.min(plan.effort, 2)
  // A palette's colours change with effort, and its score with them (0.990 at effort 3 fell to
  // 0.985 at 7), for only a third of the time saved: palettes are searched as they are encoded.
  return plan.effort
}

/**
 * How an image that is only scored is encoded. A JPEG: baseline, without Huffman optimisation. A
 * progressive JPEG decodes to the very pixels of a baseline one with the same settings (the same
 * coefficients, sent in another order), and optimised Huffman tables code the same coefficients
 * in fewer bytes (tests/image/search/sample.test.ts checks both). At 1.6 MP and quality 93 the
 * encode took 8 ms instead of 36 progressive, and the decode 9 instead of 27. With trellis
 * quantisation (effort 1), which weighs coefficients by what they cost to code, the plan is kept.
 * A palette PNG: stored, not deflated (the same palette and pixels; on a 1.6 MP graphic 160 ms
 * instead of 440, on a photo, where choosing the palette is most of the time, 3.0 s instead of 3.2).
 */
export function scoringPlan(plan: JobPlan): JobPlan {
  if (plan.format === 'png' && !plan.lossless) return { ...plan, scoredOnly: true }
  if (plan.format !== 'jpeg' || (plan.effort ?? 0) !== 0) return plan
  return { ...plan, progressive: false, scoredOnly: true }
}

/** A sample probe's plan: a sample is only ever scored. */
export function sampleProbePlan(base: JobPlan, quality: number): JobPlan {
  return scoringPlan({ ...base, quality, effort: probeEffort(base) })
}

/**
 * Whether the whole image's probes are encoded only to be scored, the answer then made once as
 * asked: a palette PNG's probe deflated (png-deflate.ts), a progressive JPEG's encoded again,
 * which costs less than the cheap probes and their decodes save. A baseline JPEG answer's encode
 * costs about what a cheap probe saves, so its probes stay answers. Cheap probes are not offered
 * as the best so far (they are not what was asked for): the answer is, once made.
 */
const scoresCheaply = (base: JobPlan) =>
  (base.format === 'png' || base.progressive) && scoringPlan(base).scoredOnly === true

/**
 * The answer from a probe that was only scored: the same pixels, so the same score. A PNG the
 * deflate cannot rewrite (none is expected: the probe is libvips' own file) is encoded again.
 */
async function asAsked(session: EncodeSession, probe: Scored, plan: JobPlan): Promise<Scored> {
  const data =
    plan.format === 'png' ? await deflatePng(probe.encoded.data, 9).catch(() => undefined) : undefined
  const made = data ? { plan, encoded: { ...probe.encoded, data } } : await session.encode(plan)
  return { ...made, similarity: probe.similarity }
}

/**
 * For a still palette PNG: a probe whose palette is full would come out the same at every
 * higher quality, so a failing one ends the palette search (the answer is then lossless): a
 * photo's search went 95, 100, lossless, the second palette the very file of the first.
 */
function saturatedPalette(session: EncodeSession, base: JobPlan): ((scored: Scored) => boolean) | undefined {
  if (base.format !== 'png' || base.lossless || session.pixels.frames > 1) return undefined
  return (scored) => paletteIsFull(scored.encoded.data)
}

/** Encodes `plan` and scores it against the reference, counting both into the session's clock. */
async function encodeAndScore(
  session: EncodeSession,
  plan: JobPlan,
  reference: PreparedReference,
): Promise<Scored> {
  const started = session.now()
  // The reference is readied on this thread while libvips encodes on its own.
  const [attempt] = await Promise.all([
    session.encode(plan),
    Promise.resolve().then(() => primeReference(reference)),
  ])
  const similarity = await scoreCandidate(reference, attempt.encoded.data)
  session.note(session.now() - started)
  return { ...attempt, similarity }
}

/** Sample points this far below the crossing make its slope a fit over several steps, not one. */
const SLOPE_REACH = 6

/**
 * The quality where a search on a sample of the image crosses the level, and the sample's
 * slope there; undefined when the image is too small for a sample to pay.
 */
async function searchSample(
  session: EncodeSession,
  base: JobPlan,
  start: number,
  range: SearchRange,
  /** Quality steps added to the sample's crossing for the first probe of the whole image. */
  bias: number,
): Promise<{ readonly quality: number; readonly slope: number } | undefined> {
  const sample = await sampleOf(session.pixels, base)
  if (!sample) return undefined
  const sampleSession = session.forSample(sample.pixels)
  const probes = new Probes(range.target)
  const probe = (quality: number) =>
    encodeAndScore(sampleSession, sampleProbePlan(base, quality), sample.reference)
  await secantSearch(sampleSession, probe, probes, start, { ...range, tolerance: TOLERANCE })
  const at = crossing(probes.all.map(pointOf), range.goal)
  const quality = Math.min(100, Math.max(range.floor, Math.ceil(at) + bias))
  const near = probes.all.map((p) => p.plan.quality!).filter((q) => Math.abs(q - at) <= SLOPE_REACH + 2)
  const below = Math.max(1, Math.round(at) - SLOPE_REACH)
  if (
    Math.max(...near) - Math.min(...near) < SLOPE_REACH / 2 &&
    quality > range.floor &&
    sampleSession.canAfford()
  )
    probes.record(await probe(below))
  return { quality, slope: slopeNear(probes.all.map(pointOf), at) }
}

/**
 * The lowest quality whose output scores at least the level's target. Large images are first
 * searched on a sample (search/sample.ts), then confirmed on the whole image, usually in one
 * encode; smaller ones are searched whole. Returns the lowest passing attempt found; when even
 * 100 falls short, PNG's lossless encode, or the best attempt for the other formats (the score
 * is then reported as it is).
 */
export async function lowestQualityThatLooksTheSame(
  session: EncodeSession,
  base: JobPlan,
  level: AutoQuality,
  /** May still be in the making: it is first needed after the sample's search. */
  reference: PreparedReference | Promise<PreparedReference>,
  start: number = START[searchFormat(base.format)][level],
  tolerance: number = TOLERANCE,
): Promise<Scored> {
  if (base.lossless) return encodeAndScore(session, base, await reference)
  const target = aimFor(level)
  const range = {
    floor: MIN_QUALITY[searchFormat(base.format)][level],
    tolerance,
    target,
    goal: Math.log(1 - target),
  }
  const probes = new Probes(target, saturatedPalette(session, base))
  const first = Math.max(range.floor, start)
  // GIF has no quality to search: one encode says how close it comes.
  if (base.quality === undefined)
    return encodeAndScore(session, { ...base, quality: first, effort: probeEffort(base) }, await reference)
  // With a sample to go by, the whole image is probed at the effort asked for where that costs
  // at most twice a probe's: its first probe is then usually the answer. At the sample's own
  // effort the whole image scored a little under its sample (JPEG at width 1600: under the
  // level at the sample's crossing on every corpus photo tried), so it is probed a step higher.
  const atAskedEffort = effortCostFactor(base) <= 2
  const effort = atAskedEffort ? base.effort : probeEffort(base)
  const sampled = await searchSample(session, base, first, range, effort === probeEffort(base) ? 1 : 0)
  const whole = await reference
  const cheaply = scoresCheaply(base) && session.encodesLeft >= 2
  // The answer's own encode is kept out of the probes' share of the cap.
  const probing = cheaply ? session.leaving(1) : session
  const probe = async (quality: number) => {
    const plan = { ...base, quality, effort }
    const scored = await encodeAndScore(probing, cheaply ? scoringPlan(plan) : plan, whole)
    // A new lowest pass of the whole image is the search's best answer so far.
    const lowest = !probes.pass || quality < probes.pass.plan.quality!
    if (!cheaply && scored.similarity.score >= target && lowest) session.offer(scored, scored.similarity)
    return scored
  }
  await secantSearch(probing, probe, probes, sampled?.quality ?? first, range, sampled?.slope)
  // No palette looks the same: PNG's answer is then its lossless encode, which always does.
  if (!probes.pass && base.format === 'png' && session.canAfford())
    return encodeAndScore(session, losslessOf(base), whole)
  const found = probes.pass ?? probes.best!
  if (!found.plan.scoredOnly) return found
  const answer = await asAsked(session, found, { ...base, quality: found.plan.quality, effort })
  if (probes.pass) session.offer(answer, answer.similarity)
  return answer
}

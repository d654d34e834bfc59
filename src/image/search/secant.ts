/*
 * The search for where a score crosses a level, by secant steps on ln(1 - score), which falls
 * close to linearly with quality: on a sample of the image, or on the whole image guided by
 * the sample's slope (auto-quality.ts).
 */
import type { Scored } from './session.ts'
import { crossing, guidedCrossing, lnLossOf, type Point } from './guide.ts'
import type { EncodeSession } from './session.ts'

export const pointOf = (scored: Scored): Point => ({
  quality: scored.plan.quality!,
  lnLoss: lnLossOf(scored.similarity.score),
})

/** The probes of one search: the lowest that passes, the highest that fails, the best. */
export class Probes {
  pass: Scored | undefined
  fail: Scored | undefined
  best: Scored | undefined
  /** A failing probe that no higher quality changes: every quality above it fails as well. */
  ceiling: Scored | undefined
  readonly all: Scored[] = []
  constructor(
    private readonly target: number,
    /** Whether every higher quality would give this very output (a full palette, png-chunks.ts). */
    private readonly saturated: (scored: Scored) => boolean = () => false,
  ) {}

  record(scored: Scored): Scored {
    this.all.push(scored)
    if (!this.best || scored.similarity.score > this.best.similarity.score) this.best = scored
    if (scored.similarity.score >= this.target) {
      if (!this.pass || scored.plan.quality! < this.pass.plan.quality!) this.pass = scored
    } else {
      if (!this.fail || scored.plan.quality! > this.fail.plan.quality!) this.fail = scored
      if (this.saturated(scored)) this.ceiling ??= scored
    }
    return scored
  }

  /** The next quality a secant step on ln(1 - score) points to, as a real number. */
  secant(goal: number): number {
    const [a, b] = this.pass && this.fail ? [this.fail, this.pass] : [this.all.at(-2), this.all.at(-1)!]
    if (!a || a.plan.quality === b.plan.quality) return crossing([pointOf(b)], goal)
    return crossing([pointOf(a), pointOf(b)], goal)
  }
}

export interface SearchRange {
  readonly floor: number
  readonly tolerance: number
  /** The score to reach, and ln(1 - it). */
  readonly target: number
  readonly goal: number
}

/**
 * The secant search on ln(1 - score), bracketing the target and closing in until the bracket
 * is `tolerance` quality steps wide. With a sample's slope, the first probe's score says where
 * the level is crossed (later ones, their own secant), and a pass that this puts within the
 * tolerance of the crossing ends the search.
 */
export async function secantSearch(
  session: EncodeSession,
  probe: (quality: number) => Promise<Scored>,
  probes: Probes,
  first: number,
  range: SearchRange,
  /** The sample's slope near the crossing, when a sample was searched. */
  guide?: number,
): Promise<void> {
  const { floor, tolerance, goal } = range
  probes.record(await probe(first))
  while (session.canAfford()) {
    const lo = probes.fail?.plan.quality ?? floor - 1
    const hi = probes.pass?.plan.quality ?? 101
    // Two quality steps apart is close enough: the next step saves about 2% of the bytes.
    // Nothing passes above a failure that no higher quality changes, and less is not better.
    if (hi - lo <= tolerance || (!probes.pass && (lo >= 100 || probes.ceiling))) break
    const guided = guide !== undefined
    const once = guided && probes.all.length === 1
    const next = once ? guidedCrossing(guide, pointOf(probes.all[0]!), goal) : probes.secant(goal)
    // Guided, a pass the curve puts within the tolerance of the crossing is the answer.
    if (guided && probes.pass && next > hi - tolerance) break
    // After a guided miss, err upwards: another encode of the whole image costs more than a step.
    const rounded = guided && !probes.pass ? Math.ceil(next) : Math.round(next)
    const quality = Math.min(hi - 1, Math.max(lo + 1, Math.min(100, Math.max(1, rounded))))
    probes.record(await probe(quality))
  }
}

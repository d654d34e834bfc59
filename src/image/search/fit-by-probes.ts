/*
 * maxBytes for an encoder whose asked-for effort costs many times a low one (AVIF: 20 to 60
 * times at effort 4 against 0 on the corpus photos). The quality is searched with encodes at
 * the low effort, and the bytes at the asked effort are predicted from them by a ratio that the
 * first encode at the asked effort then measures. That ratio differs between photos (0.69 to
 * 1.04 for AVIF at width 1600) but holds within about 5% across one photo's qualities, so the
 * second encode at the asked effort, when one is needed, lands.
 */
import type { JobPlan } from '../plan.ts'
import { effortCostFactor, probeEffort } from './auto-quality.ts'
import { CLOSE_ENOUGH, highestThatFits, size, type FitResult } from './highest-that-fits.ts'
import type { Attempt, EncodeSession } from './session.ts'

/** Bytes at the asked effort over bytes at the probes', before an encode has measured it: the corpus photos' median. */
const TYPICAL_RATIO = 0.8
/** Encodes at the asked effort: the first calibrates, the second lands, a third may close the bracket. */
const FULL_ENCODES = 3
/**
 * How far above the last quality the probes look for the top of their bracket: near the top,
 * a probe costs several times one at the middle (AVIF at 100: three to four times 50).
 */
const PROBE_REACH = 10

/** Byte-for-byte equality, through views (Buffer.from of a Uint8Array would copy it). */
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)

/** Whether a byte target on this plan is searched at a lower effort (search/auto-quality.ts decides which). */
export function probesCheaply(plan: JobPlan): boolean {
  return effortCostFactor(plan) > 2 && plan.effort !== undefined && probeEffort(plan) !== plan.effort
}

/**
 * The highest quality in `range` whose encode at the asked effort fits in `maxBytes`, found as
 * above. The result's attempts are all at the asked effort; undefined when the session had no
 * time or encodes left for one.
 */
export async function fitByProbes(
  session: EncodeSession,
  base: JobPlan,
  range: { readonly lo: number; readonly hi: number; readonly start: number },
  maxBytes: number,
): Promise<FitResult | undefined> {
  const probes = new Map<number, Promise<Attempt>>()
  const probeAt = (quality: number) => {
    let probe = probes.get(quality)
    if (!probe) {
      probe = session.encode({ ...base, quality, effort: probeEffort(base) })
      probes.set(quality, probe)
    }
    return probe
  }
  const costFactor = effortCostFactor(base)
  let ratio = TYPICAL_RATIO
  // The bracket at the asked effort: the highest quality known to fit, the lowest known not to.
  let lo = range.lo - 1
  let hi = range.hi + 1
  let start = range.start
  let fit: Attempt | undefined
  let smallest: Attempt | undefined
  // Each probe encoded again at the asked effort. The encoder maps qualities onto fewer
  // quantiser levels (AVIF 45 and 46 gave the same bytes): a quality whose probe matches one of
  // these probes byte for byte would give the same bytes again, and is not encoded twice.
  const known: { readonly probe: Attempt; readonly full: Attempt }[] = []
  let fulls = 0
  let reach = PROBE_REACH
  // Every pass either encodes, moves a side of the bracket (which holds at most 101 qualities)
  // or widens the probes' window (up to the bracket).
  while (fulls < FULL_ENCODES && hi - lo > 1) {
    if (fit && size(fit) >= maxBytes * CLOSE_ENOUGH) break
    const top = Math.min(range.hi, hi - 1)
    const open = { lo: Math.max(range.lo, lo + 1), hi: Math.min(top, Math.max(lo + 1, start) + reach) }
    const predicted = await highestThatFits(
      session,
      probeAt,
      { ...open, start: Math.min(open.hi, Math.max(open.lo, start)) },
      Math.floor(maxBytes / ratio),
    )
    if (!predicted || !session.hasEncodesLeft()) break
    const quality = predicted.fit?.plan.quality ?? open.lo
    // The probes fit at the top of a window that stops short of the bracket: the target allows
    // more. The probes look further, twice as far, before an encode at the asked effort is
    // spent on a quality known to be too low (a target that quality 90 meets came back at 71,
    // three slow encodes climbing ten qualities each).
    if (predicted.fit && quality === open.hi && open.hi < top) {
      start = quality
      reach *= 2
      continue
    }
    const probe = await probeAt(quality)
    let full = known.find((k) => sameBytes(k.probe.encoded.data, probe.encoded.data))?.full
    if (!full) {
      // The first encode at the asked effort is estimated from a probe's time; later ones are known.
      const affordable =
        fulls > 0 ? session.canAfford() : session.canAffordMs(session.lastEncodeMs * costFactor)
      if (!affordable || !session.hasEncodesLeft()) break
      full = await session.encode({ ...base, quality })
      fulls++
      known.push({ probe, full })
      ratio = size(full) / size(probe)
      if (!smallest || size(full) < size(smallest)) smallest = full
    }
    if (size(full) <= maxBytes) {
      if (!fit || size(full) > size(fit)) {
        fit = { ...full, plan: { ...full.plan, quality } }
        session.offer(fit)
      }
      lo = quality
    } else hi = quality
    start = quality
  }
  return smallest ? { ...(fit ? { fit } : {}), smallest } : undefined
}

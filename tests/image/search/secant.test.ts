import { describe, expect, test } from 'bun:test'
import type { Scored } from '../../../src/image/search/auto-quality.ts'
import { Probes, secantSearch } from '../../../src/image/search/secant.ts'
import type { EncodeSession } from '../../../src/image/search/session.ts'

/** A score curve with ln(1 - score) falling by `slope` a quality step, crossing 0.99 at `crossesAt`. */
function curve(slope: number, crossesAt: number) {
  const probed: number[] = []
  const probe = async (quality: number) => {
    probed.push(quality)
    const score = 1 - Math.exp(Math.log(0.01) + slope * (quality - crossesAt))
    return { plan: { quality }, similarity: { metric: 'ssim', score } } as unknown as Scored
  }
  return { probe, probed }
}

const session = { canAfford: () => true } as unknown as EncodeSession
const range = { floor: 50, tolerance: 2, target: 0.99, goal: Math.log(0.01) }

describe('secant search', () => {
  test('closes in on the lowest quality that passes, the bracket two steps wide', async () => {
    const { probe, probed } = curve(-0.08, 83.4)
    const probes = new Probes(range.target)
    await secantSearch(session, probe, probes, 92, range)
    expect(probes.pass!.plan.quality).toBeGreaterThanOrEqual(84)
    expect(probes.pass!.plan.quality! - (probes.fail?.plan.quality ?? 0)).toBeLessThanOrEqual(2)
    expect(probed.length).toBeGreaterThan(1)
  })

  test("with a sample's slope, a first probe that passes near the crossing is the answer", async () => {
    const { probe, probed } = curve(-0.08, 87.6)
    const probes = new Probes(range.target)
    await secantSearch(session, probe, probes, 88, range, -0.08)
    expect(probed).toEqual([88])
  })

  test("with a sample's slope, a first probe that misses is followed by one that passes", async () => {
    const { probe, probed } = curve(-0.08, 88.3)
    const probes = new Probes(range.target)
    await secantSearch(session, probe, probes, 87, range, -0.08)
    expect(probed).toEqual([87, 89])
    expect(probes.pass!.plan.quality).toBe(89)
  })

  test("with a sample's slope, a pass far above the crossing steps down to it", async () => {
    const { probe, probed } = curve(-0.08, 80.5)
    const probes = new Probes(range.target)
    await secantSearch(session, probe, probes, 90, range, -0.08)
    expect(probed[0]).toBe(90)
    expect(probes.pass!.plan.quality).toBeLessThanOrEqual(82)
    expect(probes.pass!.plan.quality).toBeGreaterThanOrEqual(81)
  })
})

describe('a failure no higher quality changes', () => {
  test('ends the search at once: every quality above it gives the same output', async () => {
    const { probe, probed } = curve(-0.08, 120)
    const probes = new Probes(range.target, (scored) => scored.plan.quality! >= 90)
    await secantSearch(session, probe, probes, 95, range)
    expect(probed).toEqual([95])
    expect(probes.pass).toBeUndefined()
    expect(probes.ceiling?.plan.quality).toBe(95)
  })

  test('a failure that a higher quality may still change is searched past as before', async () => {
    const { probe, probed } = curve(-0.08, 97.5)
    const probes = new Probes(range.target, (scored) => scored.plan.quality! >= 99)
    await secantSearch(session, probe, probes, 95, range)
    expect(probed[0]).toBe(95)
    expect(probes.pass!.plan.quality).toBeGreaterThanOrEqual(98)
    expect(probes.ceiling).toBeUndefined()
  })
})

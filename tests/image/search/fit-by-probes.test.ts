import { wallClock } from '../../../src/image/job-clock.ts'
import { describe, expect, test } from 'bun:test'
import { configWith } from '../../../src/config.ts'
import { planJob, type JobPlan } from '../../../src/image/plan.ts'
import { probeImage } from '../../../src/image/probe.ts'
import { fitBytes } from '../../../src/image/search/byte-target.ts'
import { fitByProbes, probesCheaply } from '../../../src/image/search/fit-by-probes.ts'
import { decodePixels } from '../../../src/image/search/index.ts'
import { EncodeSession } from '../../../src/image/search/session.ts'
import { parseCompressOptions } from '../../../src/options/parse.ts'
import { fixture } from '../../helpers/paths.ts'

const config = configWith({})

/** A session on the fixture photo at `query`, counting its encodes by effort. */
async function sessionFor(query: string) {
  const input = await fixture('photo-exif-orientation-6.jpg')
  const probe = await probeImage(input, config.maxUploadBytes)
  const plan = planJob(parseCompressOptions(new Map(new URLSearchParams(query)), config), probe, config)
  const options = { maxInputPixels: config.maxInputPixels, timeoutSeconds: 60 }
  const pixels = await decodePixels(input, probe, plan, options)
  const clock = wallClock()
  const session = EncodeSession.start(pixels, probe, {
    clock,
    deadline: clock.now() + 60_000,
    maxEncodes: 16,
    timeoutSeconds: 60,
  })
  const efforts: (number | undefined)[] = []
  const encode = session.encode.bind(session)
  session.encode = (p: JobPlan) => {
    efforts.push(p.effort)
    return encode(p)
  }
  return { session, plan, efforts }
}

const bytes = (attempt: { encoded: { data: Uint8Array } }) => attempt.encoded.data.length

describe('maxBytes searched at a low effort and calibrated (AVIF)', () => {
  test("applies to AVIF above the probes' effort, not to AVIF at effort 0 nor to JPEG", async () => {
    const avif = (await sessionFor('format=avif&width=400')).plan
    expect(probesCheaply(avif)).toBe(true)
    expect(probesCheaply({ ...avif, effort: 0 })).toBe(false)
    expect(probesCheaply((await sessionFor('format=jpeg&width=400')).plan)).toBe(false)
  })

  test('lands under the target at the effort asked for, in at most three encodes at that effort', async () => {
    const { session, plan, efforts } = await sessionFor('format=avif&width=400')
    const plain = await session.encode(plan)
    const maxBytes = Math.floor(bytes(plain) * 0.8)
    efforts.length = 0
    const result = (await fitByProbes(session, plan, { lo: 1, hi: 100, start: plan.quality! }, maxBytes))!
    expect(result.fit).toBeDefined()
    expect(bytes(result.fit!)).toBeLessThanOrEqual(maxBytes)
    expect(result.fit!.plan.effort).toBe(plan.effort)
    expect(result.smallest.plan.effort).toBe(plan.effort)
    const full = efforts.filter((e) => e === plan.effort).length
    expect(full).toBeGreaterThanOrEqual(1)
    expect(full).toBeLessThanOrEqual(3)
    expect(efforts.filter((e) => e === 0).length).toBeGreaterThan(0)
    // The highest quality that fits, or one within 10% under: one step up, at the asked effort, does not fit.
    const next = await session.encode({ ...plan, quality: result.fit!.plan.quality! + 1 })
    expect(bytes(result.fit!) >= maxBytes * 0.9 || bytes(next) > maxBytes).toBe(true)
  })

  test('fitBytes takes this path for AVIF, and its answer is an encode at the effort asked for', async () => {
    const { session, plan, efforts } = await sessionFor('format=avif&width=400')
    const plain = await session.encode(plan)
    efforts.length = 0
    const result = (await fitBytes(session, plan, Math.floor(bytes(plain) * 0.7), 1))!
    expect(bytes(result.fit!)).toBeLessThanOrEqual(Math.floor(bytes(plain) * 0.7))
    expect(result.fit!.plan.effort).toBe(plan.effort)
    expect(efforts).toContain(0)
  })

  test('a target below the floor at the asked effort: no fit, the smallest encode at that effort reported', async () => {
    const { session, plan } = await sessionFor('format=avif&width=400')
    const result = (await fitByProbes(session, plan, { lo: 60, hi: 100, start: 80 }, 500))!
    expect(result.fit).toBeUndefined()
    expect(result.smallest.plan.effort).toBe(plan.effort)
    expect(result.smallest.plan.quality).toBe(60)
  })
})

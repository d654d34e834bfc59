import { describe, expect, test } from 'bun:test'
import { AppError } from '../../src/errors/app-error.ts'
import { affordEncode } from '../../src/image/encode-budget.ts'
import type { JobPlan } from '../../src/image/plan.ts'
import { SETTINGS } from '../../src/settings.ts'
import { planOf } from '../helpers/plans.ts'

const BUDGET = SETTINGS.encodeBudgetMs.default
const base: JobPlan = planOf({ format: 'avif', quality: 50 })
const size = (width: number, height: number, frames = 1) => ({ width, height, frames })

function refusal(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('the encode budget of uninterruptible encoders', () => {
  test('leaves an AVIF that fits at its effort alone', () => {
    // Effort 4 costs 11 s per megapixel on noise: 0.8 MP fits 10 s.
    expect(affordEncode(base, size(1000, 800), false, BUDGET)).toBe(base)
  })

  test('lowers the default AVIF effort for a larger output until it fits', () => {
    // 4 MP at effort 4 is 44 s on noise; effort 3 (1.05 s/MP) is 4.2 s.
    expect(affordEncode(base, size(2000, 2000), false, BUDGET).effort).toBe(3)
    // 20 MP: effort 3 is 21 s, effort 2 (0.65 s/MP) 13 s, effort 1 (0.21 s/MP) 4.2 s.
    expect(affordEncode(base, size(5000, 4000), false, BUDGET).effort).toBe(1)
  })

  test('refuses an explicit AVIF effort that does not fit, naming the effort that would', () => {
    const error = refusal(() => affordEncode({ ...base, effort: 5 }, size(2000, 2000), true, BUDGET))
    expect(error.code).toBe('IMAGE_TOO_LARGE')
    expect(error.detail).toContain('at effort 5')
    expect(error.detail).toContain('ask for effort 3 or less')
    expect(error.detail).toContain('2000x2000 = 4000000 pixels')
  })

  test('counts every frame of an animation', () => {
    const gif: JobPlan = { ...base, format: 'gif', quality: undefined, effort: 7, animated: true }
    // One 1 MP frame at effort 7 (4.8 s/MP) fits; three do not, and effort 4 (0.75 s/MP) does.
    expect(affordEncode(gif, size(1000, 1000, 1), false, BUDGET).effort).toBe(7)
    expect(affordEncode(gif, size(1000, 1000, 3), false, BUDGET).effort).toBe(4)
  })

  test('writes a PNG lossless when even palette effort 1 would not fit, unless the caller chose an effort', () => {
    const png: JobPlan = { ...base, format: 'png', quality: 80, effort: 7 }
    // 30 MP at effort 1 (0.37 s/MP) is 11 s.
    const lossless = affordEncode(png, size(6000, 5000), false, BUDGET)
    expect([lossless.lossless, lossless.effort, lossless.quality]).toEqual([true, undefined, undefined])
    expect(refusal(() => affordEncode(png, size(6000, 5000), true, BUDGET)).code).toBe('IMAGE_TOO_LARGE')
  })

  test('refuses a GIF too large even at effort 1', () => {
    const gif: JobPlan = { ...base, format: 'gif', quality: undefined, effort: 7 }
    const error = refusal(() => affordEncode(gif, size(6000, 5000), false, BUDGET))
    expect(error.detail).not.toContain('ask for effort')
  })

  test('never touches encoders the job timeout can stop: JPEG, WebP, lossless PNG, TIFF', () => {
    for (const plan of [
      { ...base, format: 'jpeg' },
      { ...base, format: 'webp' },
      { ...base, format: 'png', lossless: true, effort: undefined },
      { ...base, format: 'tiff' },
    ] as JobPlan[])
      expect(affordEncode(plan, size(10_000, 10_000), true, BUDGET)).toBe(plan)
  })

  test('follows the setting: a larger budget keeps the effort', () => {
    expect(affordEncode(base, size(2000, 2000), false, 60_000).effort).toBe(4)
  })
})

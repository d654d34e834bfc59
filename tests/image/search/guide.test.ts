import { describe, expect, test } from 'bun:test'
import { crossing, guidedCrossing, slopeNear, TYPICAL_SLOPE } from '../../../src/image/search/guide.ts'

/** Points on ln(1 - score) = intercept + slope * quality. */
const line = (slope: number, intercept: number, qualities: readonly number[]) =>
  qualities.map((quality) => ({ quality, lnLoss: intercept + slope * quality }))

describe('guide', () => {
  test('finds where a straight curve crosses the goal, between its points and beyond them', () => {
    const points = line(-0.05, -0.1, [70, 80, 90])
    // -0.1 - 0.05 q = -4.6 at q = 90
    expect(crossing(points, -4.6)).toBeCloseTo(90, 9)
    expect(crossing(points, -4.1)).toBeCloseTo(80, 9)
    expect(crossing(points, -5.1)).toBeCloseTo(100, 9)
    expect(crossing(points, -3.1)).toBeCloseTo(60, 9)
  })

  test('takes the crossing nearest the top when the curve wavers', () => {
    // Passes at 60 and 90, fails at 75: the lowest quality that passes on the way down is above 75.
    const points = [
      { quality: 60, lnLoss: -5 },
      { quality: 75, lnLoss: -4 },
      { quality: 90, lnLoss: -6 },
    ]
    const at = crossing(points, -4.5)
    expect(at).toBeGreaterThan(75)
    expect(at).toBeLessThan(90)
  })

  test('falls back to the typical slope where the points do not fall', () => {
    expect(crossing([{ quality: 80, lnLoss: -4 }], -4 + TYPICAL_SLOPE * 5)).toBeCloseTo(85, 9)
    expect(slopeNear(line(0.01, -5, [80, 85]), 82)).toBe(TYPICAL_SLOPE)
    expect(slopeNear(line(-0.08, 0, [80]), 80)).toBe(TYPICAL_SLOPE)
  })

  test('fits the slope over the points near the crossing, not the two closest alone', () => {
    const points = [...line(-0.08, 2, [78, 84, 90]), { quality: 91, lnLoss: 2 - 0.08 * 90 - 0.01 }]
    expect(slopeNear(points, 88)).toBeCloseTo(-0.08, 1)
    // A point far from the crossing does not count.
    expect(slopeNear([...line(-0.08, 2, [84, 90]), { quality: 40, lnLoss: 0 }], 88)).toBeCloseTo(-0.08, 9)
  })

  test('moves a probe of the whole image to the goal along the slope', () => {
    expect(guidedCrossing(-0.1, { quality: 90, lnLoss: -4.8 }, -4.6)).toBeCloseTo(88, 9)
    expect(guidedCrossing(-0.1, { quality: 90, lnLoss: -4.4 }, -4.6)).toBeCloseTo(92, 9)
  })
})

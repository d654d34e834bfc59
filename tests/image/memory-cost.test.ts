import { describe, expect, test } from 'bun:test'
import { estimateJobBytes } from '../../src/image/memory-cost.ts'
import type { JobPlan } from '../../src/image/plan.ts'
import type { ImageProbe } from '../../src/image/probe.ts'
import { planOf, probeOf } from '../helpers/plans.ts'

const MIB = 1024 * 1024
const probe: ImageProbe = probeOf()
const plan: JobPlan = planOf()
const searching: JobPlan = { ...plan, goal: { level: 'auto', allowResize: false } }

describe('the memory a job reserves', () => {
  test('a search adds its term: the kept pixels and a scoring copy (20 bytes an output pixel) and 24 MiB', () => {
    const out = { width: 1000, height: 500, frames: 1 }
    const extra = estimateJobBytes(probe, searching, out) - estimateJobBytes(probe, plan, out)
    expect(extra).toBe(1000 * 500 * 20 + 24 * MIB)
  })

  test("the search term grows with the output's pixels and frames, not the input's", () => {
    const small = { width: 500, height: 250, frames: 1 }
    const frames = { width: 500, height: 250, frames: 4 }
    const term = (out: typeof small) =>
      estimateJobBytes(probe, searching, out) - estimateJobBytes(probe, plan, out)
    expect(term(small)).toBe(500 * 250 * 20 + 24 * MIB)
    expect(term(frames)).toBe(500 * 250 * (4 * 4 + 16) + 24 * MIB)
    const bigger = { ...probe, width: 4000, height: 2000 }
    expect(estimateJobBytes(bigger, searching, small) - estimateJobBytes(bigger, plan, small)).toBe(
      term(small),
    )
  })

  test('an operation adds a rendered copy of its largest canvas, 8 bytes a pixel: the turned image before its downscale', () => {
    const out = { width: 1000, height: 500, frames: 1 }
    const resize = { width: 1000, fit: 'inside' as const, withoutEnlargement: true }
    const turned = { ...plan, rotate: 90, resize }
    // 2000x1000 turned is 1000x2000, as many pixels as the input; a pad grows the output.
    expect(estimateJobBytes(probe, turned, out) - estimateJobBytes(probe, { ...plan, resize }, out)).toBe(
      2000 * 1000 * 8,
    )
    const padded = { ...plan, pad: { top: 500, right: 500, bottom: 500, left: 500 } }
    expect(estimateJobBytes(probe, padded, out) - estimateJobBytes(probe, plan, out)).toBe(3000 * 2000 * 8)
  })

  test('a plain job is unchanged: input, encoder and the upload', () => {
    const out = { width: 1000, height: 500, frames: 1 }
    expect(estimateJobBytes(probe, plan, out)).toBe(2000 * 1000 * 8 + 1000 * 500 * 19 + 1_000_000)
  })
})

import type { JobPlan } from '../../src/image/plan.ts'

/** A resolved plain job, for unit tests of what reads a plan: override what the test is about. */
export function planOf(overrides: Partial<JobPlan> = {}): JobPlan {
  return {
    format: 'webp',
    quality: 80,
    lossless: false,
    effort: 4,
    progressive: false,
    smartSubsample: false,
    background: '#ffffff',
    flatten: false,
    paintsBackground: false,
    metadata: 'strip',
    animated: false,
    ignored: [],
    ...overrides,
  }
}

import type { JobPlan } from '../../src/image/plan.ts'
import type { ImageProbe } from '../../src/image/probe.ts'

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

/** What a probe says of an 8-bit still with no alpha, orientation or metadata: override the rest. */
export function probeOf(overrides: Partial<ImageProbe> = {}): ImageProbe {
  return {
    format: 'png',
    width: 2000,
    height: 1000,
    frames: 1,
    isApng: false,
    hasAlpha: false,
    highDepth: false,
    isGreyscale: false,
    orientation: 1,
    hasIcc: false,
    hasPrivateMetadata: false,
    bytes: 1_000_000,
    ...overrides,
  }
}

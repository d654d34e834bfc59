import type { OutputSize } from './limits.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'

/**
 * The memory one job needs at its peak, estimated from the header and the plan before it
 * runs, so the queue can keep the running jobs within the decode budget. The coefficients are
 * worst cases measured per pipeline by bench/encode-cost.ts (peak RSS over a fresh process, per
 * megapixel); they err on the high side.
 */
const BYTES_PER_INPUT_PIXEL = 8
const BYTES_PER_OUTPUT_PIXEL = 12
/** 16-bit inputs decode to twice the bytes per sample. */
const HIGH_DEPTH_FACTOR = 2

export function estimateJobBytes(probe: ImageProbe, plan: JobPlan, out: OutputSize): number {
  const decodedFrames = plan.animated ? probe.frames : 1
  const depth = probe.highDepth ? HIGH_DEPTH_FACTOR : 1
  const input = probe.width * probe.height * decodedFrames * BYTES_PER_INPUT_PIXEL * depth
  const output = out.width * out.height * out.frames * BYTES_PER_OUTPUT_PIXEL
  return input + output + probe.bytes
}

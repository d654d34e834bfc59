import { AppError } from '../errors/app-error.ts'
import { assertDecoderLimit, type DecoderPixelLimits } from './decoders/index.ts'
import type { JobPlan } from './plan.ts'
import { expectedOutputSize, largestCanvas } from './geometry.ts'
import type { ImageProbe } from './probe.ts'

export interface ImageLimits extends DecoderPixelLimits {
  readonly maxInputPixels: number
  readonly maxFrames: number
  readonly maxOutputDimension: number
  readonly maxOutputPixels: number
}

const tooLarge = (detail: string) => new AppError('IMAGE_TOO_LARGE', detail)

export interface OutputSize {
  readonly width: number
  readonly height: number
  readonly frames: number
}

/**
 * Refuses work from the header and the plan alone, before any pixel is decoded: a
 * decompression bomb (tiny file, huge declared size) or an enlargement (tiny file, huge
 * requested size) costs milliseconds and no memory.
 */
export function assertWithinLimits(probe: ImageProbe, plan: JobPlan, limits: ImageLimits): OutputSize {
  if (probe.frames > limits.maxFrames)
    throw tooLarge(
      `expected at most ${limits.maxFrames} frames, received an animation of ${probe.frames} frames`,
    )
  const decodedFrames = plan.animated ? probe.frames : 1
  const pixels = probe.width * probe.height * decodedFrames
  if (pixels > limits.maxInputPixels) {
    const frames = decodedFrames > 1 ? ` x ${decodedFrames} frames` : ''
    throw tooLarge(
      `expected at most ${limits.maxInputPixels} pixels, received ${probe.width}x${probe.height}${frames} = ${pixels} pixels`,
    )
  }
  assertDecoderLimit(probe.format, probe.width, probe.height, limits)
  const out = { ...expectedOutputSize(probe, plan), frames: decodedFrames }
  if (out.width > limits.maxOutputDimension || out.height > limits.maxOutputDimension) {
    throw tooLarge(
      `expected an output of at most ${limits.maxOutputDimension} pixels per side, this request would produce ${out.width}x${out.height}`,
    )
  }
  const outPixels = out.width * out.height * out.frames
  if (outPixels > limits.maxOutputPixels) {
    const frames = out.frames > 1 ? ` x ${out.frames} frames` : ''
    throw tooLarge(
      `expected an output of at most ${limits.maxOutputPixels} pixels, this request would produce ${out.width}x${out.height}${frames} = ${outPixels} pixels`,
    )
  }
  // A turn by an angle before a downscale, or a pad, can hold more pixels than the output.
  const canvas = largestCanvas(probe, plan)
  const canvasPixels = canvas.width * canvas.height * out.frames
  if (canvasPixels > limits.maxOutputPixels) {
    throw tooLarge(
      `expected at most ${limits.maxOutputPixels} pixels at every step, this request would make a ${canvas.width}x${canvas.height} canvas on the way (a turn by ${plan.rotate ?? 0} degrees); turn a smaller crop, or send a smaller image`,
    )
  }
  return out
}

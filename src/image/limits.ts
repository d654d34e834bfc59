import { AppError } from '../errors/app-error.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'

export interface ImageLimits {
  readonly maxInputPixels: number
  readonly maxFrames: number
  readonly maxOutputDimension: number
}

/**
 * Refuses work from the header alone, before any pixel is decoded: a decompression bomb
 * (tiny file, huge declared size) costs milliseconds and no memory.
 */
export function assertWithinLimits(probe: ImageProbe, plan: JobPlan, limits: ImageLimits): void {
  if (probe.frames > limits.maxFrames) {
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `expected at most ${limits.maxFrames} frames, received an animation of ${probe.frames} frames`,
    )
  }
  const decodedFrames = plan.animated ? probe.frames : 1
  const pixels = probe.width * probe.height * decodedFrames
  if (pixels > limits.maxInputPixels) {
    const frames = decodedFrames > 1 ? ` x ${decodedFrames} frames` : ''
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `expected at most ${limits.maxInputPixels} pixels, received ${probe.width}x${probe.height}${frames} = ${pixels} pixels`,
    )
  }
  const out = expectedOutputSize(probe, plan)
  if (out.width > limits.maxOutputDimension || out.height > limits.maxOutputDimension) {
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `expected an output of at most ${limits.maxOutputDimension} pixels per side, this request would produce ${out.width}x${out.height}`,
    )
  }
}

/** An upper bound on the output size sharp will produce, computed before any work. */
export function expectedOutputSize(probe: ImageProbe, plan: JobPlan): { width: number; height: number } {
  const { width: w, height: h } = probe
  const r = plan.resize
  if (!r) return { width: w, height: h }
  if (r.width === undefined || r.height === undefined) {
    const scale = r.width !== undefined ? r.width / w : r.height! / h
    const s = r.withoutEnlargement ? Math.min(scale, 1) : scale
    return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) }
  }
  const sx = r.width / w
  const sy = r.height / h
  // These never exceed the box: contain letterboxes to it even when the image is not scaled up.
  if (r.fit === 'fill' || r.fit === 'cover' || r.fit === 'contain')
    return { width: r.width, height: r.height }
  const scale = r.fit === 'inside' ? Math.min(sx, sy) : Math.max(sx, sy)
  const s = r.withoutEnlargement ? Math.min(scale, 1) : scale
  return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) }
}

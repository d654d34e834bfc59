import { AppError } from '../errors/app-error.ts'
import { assertDecoderLimit, type DecoderPixelLimits } from './decoders/index.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'

export interface ImageLimits extends DecoderPixelLimits {
  readonly maxInputPixels: number
  readonly maxFrames: number
  readonly maxOutputDimension: number
  readonly maxOutputPixels: number
  readonly maxAvifPixels: number
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
  // libheif cannot be interrupted once it starts: its cost is bounded here instead of by the timeout.
  if (plan.format === 'avif' && outPixels > limits.maxAvifPixels) {
    throw tooLarge(
      `expected an AVIF output of at most ${limits.maxAvifPixels} pixels (the AVIF encoder cannot be stopped once started), this request would produce ${out.width}x${out.height} = ${outPixels} pixels; ask for a smaller width or height, or another format`,
    )
  }
  return out
}

function scaled(w: number, h: number, scale: number, withoutEnlargement: boolean) {
  const s = withoutEnlargement ? Math.min(scale, 1) : scale
  return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) }
}

interface Size {
  readonly width: number
  readonly height: number
}

/** The box a turn by `degrees` needs: exact for right angles, the rounded-up bounding box otherwise. */
export function turnedSize({ width, height }: Size, degrees: number): Size {
  if (degrees % 180 === 0) return { width, height }
  if (degrees % 90 === 0) return { width: height, height: width }
  const radians = (degrees * Math.PI) / 180
  const cos = Math.abs(Math.cos(radians))
  const sin = Math.abs(Math.sin(radians))
  return { width: Math.ceil(width * cos + height * sin), height: Math.ceil(width * sin + height * cos) }
}

/** The upright input after crop and turn: what a resize starts from (a trim can only shrink it). */
function beforeResize(probe: ImageProbe, plan: JobPlan): Size {
  const cropped = plan.crop ?? probe
  return plan.rotate === undefined ? cropped : turnedSize(cropped, plan.rotate)
}

/** An upper bound on the size of one output frame, computed before any work. */
export function expectedOutputSize(probe: ImageProbe, plan: JobPlan): Size {
  const resized = resizedSize(beforeResize(probe, plan), plan)
  const pad = plan.pad ?? { top: 0, right: 0, bottom: 0, left: 0 }
  return { width: resized.width + pad.left + pad.right, height: resized.height + pad.top + pad.bottom }
}

function resizedSize({ width: w, height: h }: Size, plan: JobPlan): Size {
  const r = plan.resize
  if (!r) return { width: w, height: h }
  if (r.width === undefined || r.height === undefined) {
    const scale = r.width !== undefined ? r.width / w : r.height! / h
    return scaled(w, h, scale, r.withoutEnlargement)
  }
  // These never exceed the box: contain letterboxes to it even when the image is not scaled up.
  if (r.fit === 'fill' || r.fit === 'cover' || r.fit === 'contain')
    return { width: r.width, height: r.height }
  const sx = r.width / w
  const sy = r.height / h
  return scaled(w, h, r.fit === 'inside' ? Math.min(sx, sy) : Math.max(sx, sy), r.withoutEnlargement)
}

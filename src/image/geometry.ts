import type { JobPlan } from './job-plan.ts'
import type { ImageProbe } from './probe.ts'

/*
 * Sizes the plan leads to, from the header and the plan alone: what the limits and the memory
 * estimate check before any pixel is decoded. Each step's geometry, in the pipeline's order.
 */

function scaled(w: number, h: number, scale: number, withoutEnlargement: boolean) {
  const s = withoutEnlargement ? Math.min(scale, 1) : scale
  return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) }
}

export interface Size {
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

/**
 * The largest canvas any step holds, per frame: the input, the turned image before a
 * downscale, or the output. What the memory estimate and the pixel limits count.
 */
export function largestCanvas(probe: ImageProbe, plan: JobPlan): Size {
  const candidates = [probe, beforeResize(probe, plan), expectedOutputSize(probe, plan)]
  return candidates.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a))
}

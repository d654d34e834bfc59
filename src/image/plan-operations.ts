import { AppError } from '../errors/app-error.ts'
import type { CompressOptions } from '../options/schema.ts'
import type { Adjustments, JobPlan, OverlayPlan, Region, Sides } from './job-plan.ts'
import type { ImageProbe } from './probe.ts'

/*
 * What the image operations ask of a job, read from the options once they are valid: the
 * schema has checked their shape, this checks them against the image, from its header alone.
 */

const integers = (list: string) => list.split(',').map((part) => Number(part.trim()))

/** `left,top,width,height` within the upright input, or CROP_OUTSIDE_IMAGE. */
function cropFor(options: CompressOptions, probe: ImageProbe): Region | undefined {
  if (options.crop === undefined) return undefined
  const [left = 0, top = 0, width = 0, height = 0] = integers(options.crop)
  if (left + width > probe.width || top + height > probe.height) {
    throw new AppError(
      'CROP_OUTSIDE_IMAGE',
      `crop: expected a region inside the ${probe.width}x${probe.height} image (after its EXIF orientation), received ${width}x${height} at ${left},${top}, which reaches ${left + width},${top + height}`,
      { errors: [{ name: 'crop', reason: `the image is ${probe.width}x${probe.height} pixels` }] },
    )
  }
  return { left, top, width, height }
}

/** Degrees clockwise in [0, 360): -90 is 270, 360 is no turn. */
function rotationFor(options: CompressOptions): number | undefined {
  if (options.rotate === undefined) return undefined
  const degrees = ((options.rotate % 360) + 360) % 360
  return degrees === 0 ? undefined : degrees
}

/** The positions that only sharp's smart crop understands; they need a box to crop to. */
const SMART = new Set(['attention', 'entropy'])

/**
 * `fit` only chooses between ways of filling a width x height box; with one side given, the
 * other follows the aspect ratio whatever the fit (sharp's `fill` would keep the input's side).
 * dpr multiplies the box, for srcset. `position` picks what a cover crop keeps or where a
 * contain letterbox puts the image; the smart ones only crop (cover), and only a still image:
 * sharp cannot judge a stack of frames, so an animation keeps the centre.
 */
export function resizeFor(options: CompressOptions, animated: boolean): JobPlan['resize'] {
  const { withoutEnlargement, dpr } = options
  const scale = (side: number | undefined) =>
    side === undefined ? undefined : Math.max(1, Math.round(side * dpr))
  const width = scale(options.width)
  const height = scale(options.height)
  if (width === undefined && height === undefined) return undefined
  const box = width !== undefined && height !== undefined
  const fit = box ? options.fit : 'inside'
  const smart = SMART.has(options.position)
  const positioned =
    options.position !== 'centre' &&
    (fit === 'cover' || (fit === 'contain' && !smart)) &&
    !(smart && animated)
  return { width, height, fit, withoutEnlargement, ...(positioned ? { position: options.position } : {}) }
}

export type Operations = Pick<
  JobPlan,
  'crop' | 'trim' | 'flip' | 'flop' | 'rotate' | 'pad' | 'adjust' | 'overlay' | 'radius'
>

function overlayFor(options: CompressOptions): OverlayPlan {
  return {
    position: options.overlayPosition,
    opacity: options.overlayOpacity,
    ...(options.overlayWidth !== undefined ? { width: options.overlayWidth } : {}),
    margin: options.overlayMargin,
    tile: options.overlayTile,
  }
}

/** The adjustments that change something: a neutral value (brightness 1, hue 0…) is left out. */
function adjustFor(options: CompressOptions): Adjustments | undefined {
  const changes = (value: number | undefined, neutral: number) => value !== undefined && value !== neutral
  const adjust: Adjustments = {
    ...(changes(options.brightness, 1) ? { brightness: options.brightness } : {}),
    ...(changes(options.saturation, 1) ? { saturation: options.saturation } : {}),
    ...(changes(options.hue, 0) ? { hue: options.hue } : {}),
    ...(changes(options.contrast, 0) ? { contrast: options.contrast } : {}),
    ...(options.sharpen !== undefined ? { sharpen: options.sharpen } : {}),
    ...(options.blur !== undefined ? { blur: options.blur } : {}),
    ...(options.greyscale ? { greyscale: true } : {}),
    ...(options.normalise ? { normalise: true } : {}),
  }
  return Object.keys(adjust).length > 0 ? adjust : undefined
}

/** `top,right,bottom,left`, as CSS writes padding; all zero is no padding. */
function padFor(options: CompressOptions): Sides | undefined {
  if (options.pad === undefined) return undefined
  const [top = 0, right = 0, bottom = 0, left = 0] = integers(options.pad)
  return top + right + bottom + left === 0 ? undefined : { top, right, bottom, left }
}

/** `withOverlay`: the request sent a watermark, whose options then apply. */
export function operationsFor(options: CompressOptions, probe: ImageProbe, withOverlay: boolean): Operations {
  const crop = cropFor(options, probe)
  const rotate = rotationFor(options)
  const pad = padFor(options)
  const adjust = adjustFor(options)
  return {
    ...(crop ? { crop } : {}),
    ...(options.trim !== undefined ? { trim: options.trim } : {}),
    ...(options.flip ? { flip: true } : {}),
    ...(options.flop ? { flop: true } : {}),
    ...(rotate !== undefined ? { rotate } : {}),
    ...(pad ? { pad } : {}),
    ...(adjust ? { adjust } : {}),
    ...(withOverlay ? { overlay: overlayFor(options) } : {}),
    ...(options.radius ? { radius: options.radius } : {}),
  }
}

/** format=ico's sizes, each once, smallest first. */
export const icoSizesOf = (list: string) => [...new Set(integers(list))].sort((a, b) => a - b)

/** A turn by a multiple of 90 degrees: exact, no corners to fill. */
export const isRightAngle = (degrees: number) => degrees % 90 === 0

import { animationOf, rememberAnimation, type Animation } from '../apng.ts'
import { classifyImageError } from '../classify-error.ts'
import { openImage, type EncodedImage, type PipelineOptions } from '../pipeline.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import { sharp, type Sharp } from '../sharp.ts'
import { ENCODERS, runSteps, TRANSFORM } from '../steps/index.ts'

/**
 * An image decoded and transformed once, as 8-bit sRGB samples: what the searches
 * (a byte target, auto quality, the best format) encode many times over without decoding,
 * rotating or resizing again. Only these pixels and the best candidate so far are kept.
 */
export interface Pixels {
  readonly data: Uint8Array
  readonly width: number
  /** Of one frame. */
  readonly height: number
  readonly frames: number
  readonly channels: 1 | 2 | 3 | 4
  readonly animation?: Animation
}

async function timingOf(image: Sharp): Promise<Animation | undefined> {
  const own = animationOf(image)
  if (own) return own
  const { delay, loop } = await image.metadata()
  return delay ? { delay, loop: loop ?? 0 } : undefined
}

/** Decodes and transforms as the one-pass pipeline does, stopping before metadata and encoding. */
export async function decodePixels(
  input: Uint8Array,
  probe: ImageProbe,
  plan: JobPlan,
  options: PipelineOptions,
): Promise<Pixels> {
  try {
    const opened = await openImage(input, probe, plan, options)
    opened.timeout({ seconds: options.timeoutSeconds })
    const { image } = await runSteps(TRANSFORM, opened, {
      input,
      probe,
      plan,
      timeoutSeconds: options.timeoutSeconds,
      overlay: options.overlay,
    })
    // sharp converts to sRGB (through any ICC profile) only when it encodes; raw samples would
    // otherwise stay in the input's space (CMYK, 16-bit, grey). The one-pass pipeline writes
    // sRGB too, grey inputs included.
    image.toColourspace('srgb')
    const animation = plan.animated ? await timingOf(image) : undefined
    const { data, info } = await image.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true })
    const frames = plan.animated ? (info.pages ?? 1) : 1
    return {
      data,
      width: info.width,
      height: frames > 1 ? (info.pageHeight ?? info.height) : info.height,
      frames,
      channels: info.channels,
      ...(animation ? { animation } : {}),
    }
  } catch (error) {
    throw classifyImageError(error)
  }
}

/** The pixels as a sharp image, frames stacked as pages. */
export function pixelsImage(pixels: Pixels): Sharp {
  const animated = pixels.frames > 1
  const image = sharp(pixels.data, {
    raw: {
      width: pixels.width,
      height: pixels.height * pixels.frames,
      channels: pixels.channels,
      ...(animated ? { pageHeight: pixels.height } : {}),
    },
    animated,
  })
  return pixels.animation ? rememberAnimation(image, pixels.animation) : image
}

/** One candidate: the pixels encoded as `plan` says (format, quality, effort…). */
export async function encodePixels(
  pixels: Pixels,
  probe: ImageProbe,
  plan: JobPlan,
  timeoutSeconds: number,
): Promise<EncodedImage> {
  try {
    const image = pixelsImage(pixels)
    image.timeout({ seconds: timeoutSeconds })
    // Candidates of several formats share unflattened pixels; those that cannot keep alpha flatten here.
    if (plan.flatten && (pixels.channels === 2 || pixels.channels === 4))
      image.flatten({ background: plan.background })
    ENCODERS[plan.format]({ image, probe, plan })
    const { data, info } = await image.toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: pixels.height, frames: pixels.frames }
  } catch (error) {
    throw classifyImageError(error)
  }
}

/** The pixels scaled to `width` (height following), every frame alike: a byte target's last resort. */
export async function scalePixels(pixels: Pixels, width: number): Promise<Pixels> {
  const { data, info } = await pixelsImage(pixels)
    .resize({ width, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const frames = pixels.frames
  return {
    ...pixels,
    data,
    width: info.width,
    height: frames > 1 ? (info.pageHeight ?? info.height / frames) : info.height,
    channels: info.channels,
  }
}

/** The first frame alone: what a still format encodes, and what similarity compares. */
export function firstFrame(pixels: Pixels): Pixels {
  if (pixels.frames === 1) return pixels
  const bytes = pixels.width * pixels.height * pixels.channels
  const { animation: _, ...still } = pixels
  return { ...still, data: pixels.data.subarray(0, bytes), frames: 1 }
}

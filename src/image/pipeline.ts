import { classifyImageError } from './classify-error.ts'
import { decodeApng } from './apng.ts'
import { decodeForSharp, decodes } from './decoders/index.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { sharp, type Sharp } from './sharp.ts'
import { isPacked } from '../formats/format-table.ts'
import { PACKERS, PIPELINE, runSteps } from './steps/index.ts'

export interface EncodedImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
  readonly frames: number
}

export interface PipelineOptions {
  readonly maxInputPixels: number
  readonly timeoutSeconds: number
  /** The watermark's bytes, when the request sent one: beside the plan, never in it. */
  readonly overlay?: Uint8Array
}

export async function openImage(
  input: Uint8Array,
  probe: ImageProbe,
  plan: JobPlan,
  options: PipelineOptions,
): Promise<Sharp> {
  if (probe.isApng && plan.animated) return decodeApng(input, options.maxInputPixels)
  // HEIF and JPEG XL: a WebAssembly decoder turns them into a PNG that sharp reads as usual.
  const readable = decodes(probe.format) ? await decodeForSharp(probe.format, input) : input
  return sharp(readable, {
    animated: plan.animated,
    // Defence in depth behind the header check in limits.ts.
    limitInputPixels: options.maxInputPixels,
    // Truncated data is an error; harmless encoder warnings found in real-world files are not.
    failOn: 'truncated',
  })
}

/** Decodes, transforms and encodes one image; libvips failures come out as public codes. */
export async function runPipeline(
  input: Uint8Array,
  probe: ImageProbe,
  plan: JobPlan,
  options: PipelineOptions,
): Promise<EncodedImage> {
  try {
    const image = await openImage(input, probe, plan, options)
    image.timeout({ seconds: options.timeoutSeconds })
    const done = await runSteps(PIPELINE, image, {
      input,
      probe,
      plan,
      timeoutSeconds: options.timeoutSeconds,
      overlay: options.overlay,
    })
    // A container sharp cannot write (ICO) is packed from what sharp encodes.
    if (isPacked(plan.format)) return await PACKERS[plan.format](done.image, plan)
    const { data, info } = await done.image.toBuffer({ resolveWithObject: true })
    const frames = plan.animated ? (info.pages ?? 1) : 1
    const height = frames > 1 ? (info.pageHeight ?? info.height) : info.height
    return { data, width: info.width, height, frames }
  } catch (error) {
    throw classifyImageError(error)
  }
}

import type { OutputFormat } from '../formats/format-table.ts'
import { largestCanvas } from './geometry.ts'
import type { OutputSize } from './limits.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { changesPixels } from './steps/index.ts'

/**
 * The memory one job needs at its peak, estimated from the header and the plan before it
 * runs, so the queue can keep the running jobs within the decode budget. The coefficients are
 * the worst cases bench/encode-cost/encode-cost.ts measured (peak RSS over a fresh process, per
 * megapixel, sizes of 4 MP and up; bench/encode-cost/results/encode-cost.json), rounded up: they
 * err on the high side.
 */
const MIB = 1024 * 1024
/** A JPEG is decoded in strips (shrink-on-load): at most 1.4 MiB per input megapixel measured. */
const JPEG_INPUT_BYTES_PER_PIXEL = 2
const INPUT_BYTES_PER_PIXEL = 8
/** Encoder working memory per output pixel: AVIF is the heaviest by far (about 45 MiB per MP). */
const OUTPUT_BYTES_PER_PIXEL: Readonly<Record<OutputFormat, number>> = {
  jpeg: 10,
  webp: 19,
  avif: 52,
  png: 29,
  gif: 29,
  tiff: 12,
  // The frames are PNGs of at most 256 x 256; the image they are made from is encoded as a PNG.
  ico: 29,
}
/** libimagequant's fixed part (36-41 MiB measured), for palette PNG and GIF. */
const PALETTE_FIXED_BYTES = 40 * MIB
/** 16-bit inputs decode to twice the bytes per sample. */
const HIGH_DEPTH_FACTOR = 2
/**
 * A search (maxBytes, quality=auto, format=auto) keeps the transformed pixels for its encodes
 * (at most 4 bytes a pixel, every frame); scoring a candidate decodes full-size RGBA copies
 * while the best candidate so far is held. The comparison planes, the SSIM rows and
 * format=auto's preview are at most 1 megapixel each. Measured on a 4 MP photo (peak RSS over
 * a fresh process, plain against quality=auto): 71 MiB more for JPEG, 100 for WebP and PNG,
 * 149 for AVIF; the term below gives 106 MiB there, and the encoder's own coefficient covers
 * the rest.
 */
const SEARCH_KEPT_BYTES_PER_PIXEL = 4
const SEARCH_SCORING_BYTES_PER_PIXEL = 16
const SEARCH_FIXED_BYTES = 24 * MIB

/**
 * Operations (crop, turn, pad, adjustments, watermark…) may render the pixels between two sharp
 * passes: a copy of the largest canvas on the way, 4 bytes a pixel (8 at 16 bits), and the
 * next pass's own buffer of it.
 */
const RENDER_BYTES_PER_PIXEL = 8

function operationBytes(probe: ImageProbe, plan: JobPlan, frames: number): number {
  if (!changesPixels({ plan, probe })) return 0
  const { width, height } = largestCanvas(probe, plan)
  return width * height * frames * RENDER_BYTES_PER_PIXEL * (probe.highDepth ? HIGH_DEPTH_FACTOR : 1)
}

function searchBytes(plan: JobPlan, out: OutputSize): number {
  if (!plan.goal) return 0
  const pixels = out.width * out.height
  return (
    pixels * out.frames * SEARCH_KEPT_BYTES_PER_PIXEL +
    pixels * SEARCH_SCORING_BYTES_PER_PIXEL +
    SEARCH_FIXED_BYTES
  )
}

/**
 * A watermark is decoded (input bytes a pixel, like the image) and laid out as an RGBA layer the
 * size of one output frame, plus the copy composite takes of it.
 */
function overlayBytes(overlay: ImageProbe | undefined, out: OutputSize): number {
  if (!overlay) return 0
  return (
    overlay.width * overlay.height * INPUT_BYTES_PER_PIXEL + out.width * out.height * 4 * 2 + overlay.bytes
  )
}

export function estimateJobBytes(
  probe: ImageProbe,
  plan: JobPlan,
  out: OutputSize,
  overlay?: ImageProbe,
): number {
  const decodedFrames = plan.animated ? probe.frames : 1
  const depth = probe.highDepth ? HIGH_DEPTH_FACTOR : 1
  const perInputPixel = probe.format === 'jpeg' ? JPEG_INPUT_BYTES_PER_PIXEL : INPUT_BYTES_PER_PIXEL
  const input = probe.width * probe.height * decodedFrames * perInputPixel * depth
  const output = out.width * out.height * out.frames * OUTPUT_BYTES_PER_PIXEL[plan.format]
  const palette = plan.format === 'gif' || (plan.format === 'png' && !plan.lossless) ? PALETTE_FIXED_BYTES : 0
  const operations = operationBytes(probe, plan, decodedFrames)
  const watermark = plan.overlay ? overlayBytes(overlay, out) : 0
  return input + output + palette + operations + watermark + searchBytes(plan, out) + probe.bytes
}

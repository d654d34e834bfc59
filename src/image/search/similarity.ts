/*
 * How much a candidate encoding looks like its reference, so that the service can keep the
 * lowest quality that still looks the same and compare formats on equal terms.
 *
 * Both images are rendered as a viewer shows them (upright, sRGB, transparency over white),
 * brought to one size of at most about a megapixel, reduced to luma and compared with SSIM.
 * Luma is BT.601 on the gamma-encoded values, Y' = 0.299 R' + 0.587 G' + 0.114 B', rounded to
 * 8 bits: the weights JPEG (JFIF) encodes luma with and MATLAB's rgb2gray uses, which SSIM
 * is most often quoted on. It is not skimage's rgb2gray (BT.709 weights), so reference values
 * computed in Python start from these very planes, as
 * bench/ssim-reference/ssim-reference.py does.
 */
import { sharp, type Sharp } from '../sharp.ts'
import { prepareSsim, primeSsim, ssimAgainst, SSIM_WINDOW, type SsimReference } from './ssim.ts'

/**
 * Encoded bytes, read as a viewer shows them: the first frame, turned upright by its EXIF
 * orientation. Or a sharp pipeline, rendered as it stands (a clone is rendered; the caller's
 * pipeline is not changed), so the service can pass the image it is about to encode.
 */
export type ImageInput = Uint8Array | Sharp

export interface LumaPlane {
  /** 8-bit Y', row by row. */
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
}

/** A reference ready to score candidates against: its plane and its half of SSIM, computed once. */
export interface PreparedReference extends LumaPlane {
  readonly ssim: SsimReference
}

export interface Similarity {
  readonly metric: 'ssim'
  /** 1 for the same picture; lower as it differs. Not a percentage of anything. */
  readonly score: number
}

/**
 * The comparison size's pixel bound. SSIM runs in JavaScript at about 30 ms a megapixel; at
 * full size a 24-megapixel photo would cost most of a second per candidate, and grade detail
 * at a scale no one views the whole picture at.
 */
export const SIMILARITY_MAX_PIXELS = 1_000_000

const WHITE = { r: 255, g: 255, b: 255 }

interface Rgba {
  readonly data: Buffer
  readonly width: number
  readonly height: number
}

/** Full-size 8-bit sRGB with alpha: whatever the source's depth, colour space or profile. */
async function renderRgba(input: ImageInput): Promise<Rgba> {
  // A pipeline is rendered before resizing because sharp keeps only the last resize() or
  // flatten() of a chain, and adding ours would silently replace the caller's.
  const image =
    input instanceof Uint8Array ? sharp(input, { failOn: 'truncated' }).autoOrient() : input.clone()
  const { data, info } = await image
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/**
 * The size both images are compared at: the reference's own, scaled down to at most
 * SIMILARITY_MAX_PIXELS, and at least one SSIM window on each side (tiny images are enlarged).
 */
export function comparisonSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, Math.sqrt(SIMILARITY_MAX_PIXELS / (width * height)))
  return {
    width: Math.max(SSIM_WINDOW, Math.floor(width * scale)),
    height: Math.max(SSIM_WINDOW, Math.floor(height * scale)),
  }
}

/**
 * Rounded BT.601 Y' of interleaved 8-bit R'G'B' pixels (`channels` apart, 3 or more). Adding a
 * half and truncating equals Math.round for every 8-bit colour (checked over all 2^24 in the
 * tests) and runs about ten times faster in Bun.
 */
export function bt601Luma(pixels: Uint8Array, channels: number): Uint8Array {
  const luma = new Uint8Array(Math.floor(pixels.length / channels))
  for (let i = 0, p = 0; i < luma.length; i++, p += channels) {
    luma[i] = (0.299 * pixels[p]! + 0.587 * pixels[p + 1]! + 0.114 * pixels[p + 2]! + 0.5) | 0
  }
  return luma
}

/**
 * The luma plane of `input` at `size` (stretched to it, as `fit: 'fill'` does), or at its own
 * comparison size. Decodes the whole image once: about 4 bytes a pixel while it runs.
 */
export async function toLumaPlane(
  input: ImageInput,
  size?: { readonly width: number; readonly height: number },
): Promise<LumaPlane> {
  if (input instanceof Uint8Array && size) return encodedLumaPlane(input, size)
  const rgba = await renderRgba(input)
  const { width, height } = size ?? comparisonSize(rgba.width, rgba.height)
  const rgb = await sharp(rgba.data, { raw: { width: rgba.width, height: rgba.height, channels: 4 } })
    .flatten({ background: WHITE })
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data: bt601Luma(rgb.data, rgb.info.channels), width, height }
}

/**
 * A candidate's plane straight from its bytes, decoded and scaled in one pass: the search scores
 * every candidate it encodes, and this is a third of the full decode's time. Shrink-on-load
 * stays off: libwebp's own scaler, used at any scale, cost WebP 0.02 of its score.
 */
async function encodedLumaPlane(
  bytes: Uint8Array,
  size: { readonly width: number; readonly height: number },
): Promise<LumaPlane> {
  const { width, height } = size
  const rgb = await sharp(bytes, { failOn: 'truncated' })
    .autoOrient()
    .toColourspace('srgb')
    .flatten({ background: WHITE })
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3', fastShrinkOnLoad: false })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true })
  return { data: bt601Luma(rgb.data, rgb.info.channels), width, height }
}

/** Prepares the reference once, for scoring each of several candidates against it. */
export async function prepareReference(reference: ImageInput): Promise<PreparedReference> {
  return prepared(await toLumaPlane(reference))
}

const prepared = (plane: LumaPlane): PreparedReference => ({
  ...plane,
  ssim: prepareSsim(plane.data, plane.width, plane.height),
})

/** Decoded 8-bit samples, as the searches hold an image: sRGB or grey, with or without alpha. */
export interface RawImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
  readonly channels: 1 | 2 | 3 | 4
}

/**
 * The reference for decoded samples in one pass: transparency flattened on `background` (white,
 * as a viewer shows it, unless the output paints another), then scaled to `size` (by default the
 * comparison size). Rendering the samples to RGBA first, as a
 * pipeline needs, cost a full-size copy and a second pass for the same plane.
 */
export async function prepareRawReference(
  raw: RawImage,
  background: string = '#ffffff',
  size: { readonly width: number; readonly height: number } = comparisonSize(raw.width, raw.height),
): Promise<PreparedReference> {
  const { width, height, channels } = raw
  const image = sharp(raw.data, { raw: { width, height, channels } }).toColourspace('srgb')
  if (channels === 2 || channels === 4) image.flatten({ background })
  const rgb = await image
    .resize({ width: size.width, height: size.height, fit: 'fill', kernel: 'lanczos3' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true })
  return prepared({ data: bt601Luma(rgb.data, rgb.info.channels), ...size })
}

/** Readies the scorer for `reference` (search/ssim.ts primeSsim): call it while a candidate encodes. */
export function primeReference(reference: PreparedReference): void {
  primeSsim(reference.ssim)
}

/** Scores a candidate against a prepared reference, at the reference's comparison size. */
export async function scoreCandidate(
  reference: PreparedReference,
  candidate: ImageInput,
): Promise<Similarity> {
  const plane = await toLumaPlane(candidate, reference)
  return { metric: 'ssim', score: ssimAgainst(reference.ssim, plane.data) }
}

/** One comparison; to score several candidates of one image, prepare the reference once. */
export async function measureSimilarity(reference: ImageInput, candidate: ImageInput): Promise<Similarity> {
  return scoreCandidate(await prepareReference(reference), candidate)
}

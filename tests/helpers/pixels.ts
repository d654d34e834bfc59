import sharp, { type Sharp } from 'sharp'

/** Decoded samples of one image (every frame, stacked), as sharp gives them: the ground truth. */
export interface RawImage {
  readonly data: Buffer
  readonly width: number
  /** Of one frame. */
  readonly height: number
  readonly frames: number
  readonly channels: number
}

/** Every sample of an encoded image, or of a sharp pipeline, with its alpha when it has one. */
export async function rawOf(input: Uint8Array | Sharp, options: { alpha?: boolean } = {}): Promise<RawImage> {
  const image = input instanceof Uint8Array ? sharp(input, { animated: true }) : input
  const { data, info } = await (options.alpha ? image.ensureAlpha() : image)
    .raw()
    .toBuffer({ resolveWithObject: true })
  const frames = info.pages ?? 1
  return {
    data,
    width: info.width,
    height: frames > 1 ? info.pageHeight! : info.height,
    frames,
    channels: info.channels,
  }
}

/** The samples of one pixel, frame 0 unless another is named. */
export function pixelAt(image: RawImage, x: number, y: number, frame = 0): number[] {
  const start = ((frame * image.height + y) * image.width + x) * image.channels
  return [...image.data.subarray(start, start + image.channels)]
}

/** One frame's samples. */
export function frameOf(image: RawImage, frame: number): Buffer {
  const bytes = image.width * image.height * image.channels
  return image.data.subarray(frame * bytes, (frame + 1) * bytes)
}

/** Mean absolute difference of two sample arrays of the same length, 0-255. */
export function meanDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length)
    throw new Error(`expected arrays of one length, received ${a.length} and ${b.length}`)
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!)
  return sum / a.length
}

/*
 * The encodes whose cost encode-cost.ts measures: the server's settings for each format
 * (src/image/steps/encoders.ts with its default quality), except the effort under test. Shared by the
 * timing runs and the memory child, so both measure exactly the same work.
 */
import type { Sharp } from '../../src/image/sharp.ts'

export type Codec = 'avif' | 'png' | 'gif' | 'webp' | 'jpeg'

export interface EncodeSpec {
  readonly codec: Codec
  /** Only for the codecs whose effort is under test; WebP and JPEG are fixed baselines. */
  readonly effort?: number
}

export function applyEncode(image: Sharp, { codec, effort }: EncodeSpec): Sharp {
  switch (codec) {
    case 'avif':
      return image.avif({ quality: 50, effort, chromaSubsampling: '4:4:4' })
    case 'png':
      return image.png({ palette: true, quality: 80, effort, compressionLevel: 9 })
    case 'gif':
      return image.gif({ effort })
    case 'webp':
      return image.webp({ quality: 80, effort: 4 })
    case 'jpeg':
      return image.jpeg({ quality: 80, mozjpeg: true })
  }
}

export function describeEncode({ codec, effort }: EncodeSpec): string {
  const name = codec === 'png' ? 'png palette' : codec
  return effort === undefined ? name : `${name} e${effort}`
}

const efforts = (codec: Codec, values: readonly number[]): EncodeSpec[] =>
  values.map((effort) => ({ codec, effort }))

/** Every effort AVIF accepts; for the palette encoders, the ends and two points between. */
export const TIMED_ENCODES: readonly EncodeSpec[] = [
  ...efforts('avif', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
  ...efforts('png', [1, 4, 7, 10]),
  ...efforts('gif', [1, 7, 10]),
  { codec: 'webp' },
  { codec: 'jpeg' },
]

/**
 * Also timed on the largest photo at full size: the encodes that can't be interrupted at their
 * highest effort (the question is how long they take on a large input), and the two baselines.
 * AVIF is left out because its cost per megapixel is already known from the smaller sizes.
 */
export function timedAtFullSize({ codec, effort }: EncodeSpec): boolean {
  return codec === 'webp' || codec === 'jpeg' || effort === 10
}

import sharp, { type Metadata, type SharpOptions, type WriteableMetadata } from 'sharp'

export interface Decoded {
  readonly format: string | undefined
  readonly width: number
  /** Height of one frame. */
  readonly height: number
  readonly pages: number
  readonly hasExif: boolean
  readonly hasIcc: boolean
  readonly hasXmp: boolean
  readonly orientation: number | undefined
  readonly metadata: Metadata
}

/** Decodes with sharp, the ground truth for every image assertion. */
export async function decode(bytes: Uint8Array | ArrayBuffer): Promise<Decoded> {
  const metadata = await sharp(new Uint8Array(bytes), { animated: true }).metadata()
  const pages = metadata.pages ?? 1
  return {
    format: metadata.format,
    width: metadata.width!,
    height: metadata.pageHeight ?? metadata.height!,
    pages,
    hasExif: metadata.exif !== undefined,
    hasIcc: metadata.icc !== undefined,
    hasXmp: metadata.xmp !== undefined,
    orientation: metadata.orientation,
    metadata,
  }
}

/** Fully decodes every pixel: fails on truncated or damaged output. */
export async function decodePixels(bytes: Uint8Array | ArrayBuffer): Promise<Buffer> {
  return sharp(new Uint8Array(bytes), { animated: true, failOn: 'truncated' }).raw().toBuffer()
}

/** A JPEG carrying EXIF with camera make and GPS position, as phones write them. */
export async function jpegWithGps(): Promise<Uint8Array> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a7' } })
    .withExif({
      IFD0: { Make: 'LeakyPhone', Model: 'GPS-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4000/100',
      },
    } as NonNullable<WriteableMetadata['exif']>)
    .jpeg({ quality: 95 })
    .toBuffer()
}

/** A photo-like image (noise over a gradient) that compresses like a real photo. */
export async function noisyImage(
  width: number,
  height: number,
  format: 'jpeg' | 'png' = 'jpeg',
): Promise<Uint8Array> {
  const noise = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  } as SharpOptions)
  return format === 'jpeg' ? noise.jpeg({ quality: 95 }).toBuffer() : noise.png().toBuffer()
}

export const MAGIC: Record<string, (b: Uint8Array) => boolean> = {
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8,
  png: (b) => b[0] === 0x89 && b[1] === 0x50,
  webp: (b) => String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
  gif: (b) => String.fromCharCode(...b.subarray(0, 3)) === 'GIF',
  avif: (b) => String.fromCharCode(...b.subarray(4, 12)).startsWith('ftypavif'),
  tiff: (b) => (b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d),
}

/**
 * The tag numbers of an EXIF block's first directory (IFD0), as sharp returns the block: "Exif\0\0"
 * and a TIFF header. 0x8825 there points at the GPS directory.
 */
export function exifTopTags(exif: Buffer): number[] {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0)
  const little = tiff.subarray(0, 2).toString('latin1') === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const first = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4)
  return Array.from({ length: u16(first) }, (_, i) => u16(first + 2 + i * 12))
}

export function containsAscii(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes).includes(Buffer.from(text, 'latin1'))
}

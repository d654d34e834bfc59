import { AppError } from '../errors/app-error.ts'
import { classifyImageError } from './classify-error.ts'
import { decodes, readJxl } from './decoders/index.ts'
import type { FormatId } from '../formats/format-table.ts'
import { canRead, readableFormatIds } from './formats.ts'
import { apngFrameCount } from './png-chunks.ts'
import { sharp, type Metadata } from './sharp.ts'
import { nameKnownFormat } from './sniff.ts'
import { screenSvg } from './svg/index.ts'

/** What we learn from an image's header, without decoding its pixels. */
export interface ImageProbe {
  readonly format: FormatId
  /** Display size of one frame, EXIF orientation applied. */
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly isApng: boolean
  readonly hasAlpha: boolean
  /** More than 8 bits per sample (16-bit PNG or TIFF): twice the memory per pixel. */
  readonly highDepth: boolean
  /** One grey channel (plus alpha): libvips then paints a background colour in grey. */
  readonly isGreyscale: boolean
  readonly orientation: number
  readonly hasIcc: boolean
  /** EXIF, XMP or IPTC present: things `metadata=strip` must remove. */
  readonly hasPrivateMetadata: boolean
  readonly bytes: number
}

const SHARP_TO_FORMAT: Record<string, FormatId | undefined> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  tiff: 'tiff',
  svg: 'svg',
  jxl: 'jxl',
}

function unreadable(name: string): AppError {
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `expected one of the readable formats (${readableFormatIds().join(', ')}), received ${name}, which this server cannot read`,
  )
}

function formatOf(metadata: Metadata): FormatId {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : 'heic'
  const id = SHARP_TO_FORMAT[metadata.format ?? '']
  if (!id) throw unreadable(`a ${metadata.format} image`)
  return id
}

async function readMetadata(input: Uint8Array): Promise<Metadata> {
  try {
    // Header only: limitInputPixels is checked by us with a clearer message, before decoding.
    return await sharp(input, { animated: true, limitInputPixels: false }).metadata()
  } catch (error) {
    const known = nameKnownFormat(input)
    // A HEIC whose header sharp cannot parse is damaged, not unsupported: we read the format.
    if (known && known !== 'HEIC') throw unreadable(`a ${known} image`)
    throw classifyImageError(error)
  }
}

/** JPEG XL: libvips as shipped cannot read it, so its own header parser tells the facts. */
function probeJxl(input: Uint8Array): ImageProbe | undefined {
  const header = readJxl(input)
  if (!header) return undefined
  const { width, height, hasAlpha, highDepth } = header
  // One frame: the first of an animation is decoded; the pixels come out upright.
  const still = { frames: 1, isApng: false, orientation: 1, isGreyscale: false }
  return {
    format: 'jxl',
    width,
    height,
    ...still,
    hasAlpha,
    highDepth,
    hasIcc: false,
    hasPrivateMetadata: false,
    bytes: input.length,
  }
}

/**
 * Identifies the format from the bytes (never from a name or a declared type) and reads the
 * header. Hostile or costly SVG is refused before any parser sees it.
 */
export async function probeImage(input: Uint8Array, maxBytes: number): Promise<ImageProbe> {
  if (input.length === 0)
    throw new AppError('MISSING_FILE', 'expected image bytes, received an empty file (0 bytes)')
  screenSvg(input, maxBytes)
  const jxl = probeJxl(input)
  if (jxl) return jxl
  const metadata = await readMetadata(input)
  const format = formatOf(metadata)
  if (!canRead(format)) throw unreadable(`a ${format.toUpperCase()} image`)
  const apngFrames = format === 'png' ? apngFrameCount(input) : undefined
  // A HEIF's images are separate pictures, not frames: only the primary one is decoded.
  const frames = decodes(format) ? 1 : (apngFrames ?? metadata.pages ?? 1)
  const frameHeight = metadata.pageHeight ?? metadata.height ?? 0
  const width = metadata.width ?? 0
  // The container's irot/imir is already in a HEIF's size; an EXIF tag inside it is ignored.
  const orientation = decodes(format) ? 1 : (metadata.orientation ?? 1)
  const swapped = orientation >= 5 && orientation <= 8
  return {
    format,
    width: swapped ? frameHeight : width,
    height: swapped ? width : frameHeight,
    frames,
    isApng: apngFrames !== undefined && apngFrames > 1,
    hasAlpha: metadata.hasAlpha ?? false,
    highDepth: !['uchar', 'char', undefined].includes(metadata.depth),
    isGreyscale: metadata.space === 'b-w' || metadata.space === 'grey16',
    orientation,
    hasIcc: metadata.icc !== undefined,
    hasPrivateMetadata: Boolean(metadata.exif || metadata.xmp || metadata.iptc || metadata.comments?.length),
    bytes: input.length,
  }
}

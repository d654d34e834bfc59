import sharp, { type Metadata } from 'sharp'
import type { Api } from './api.ts'
import { rawBody } from './requests.ts'

/** Width of every read-back output: small, so the whole option matrix stays fast. */
export const WIDTH = 64

export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff'
export const OUTPUTS: readonly OutputFormat[] = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']

/** How test names spell each format. */
export const FORMAT_NAME: Record<OutputFormat, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  avif: 'AVIF',
  gif: 'GIF',
  tiff: 'TIFF',
}

/** An input image, with what the read-back cases need to know about it, learnt by sharp. */
export interface Sample {
  readonly name: string
  readonly bytes: Uint8Array
  /** Display size: EXIF orientation applied. */
  readonly width: number
  readonly height: number
  readonly hasAlpha: boolean
  /** Has colour channels, so chroma subsampling means something. */
  readonly colour: boolean
  /** What a lossless output at WIDTH must decode to: RGBA, sRGB, 8 bits. */
  readonly reference: Pixels
  /** The same for an animated output's first frame: frames are resized together, as one strip. */
  readonly animatedReference?: Pixels
  /** Centre of a fully transparent 5x5 block of `reference`: a flattened output shows the background there. */
  readonly transparentSpot?: { readonly x: number; readonly y: number }
  /** The same picture with EXIF, an ICC profile and XMP added, for the metadata cases. */
  readonly tagged: Uint8Array
  /** The same picture SMALL_WIDTH wide, for cases that must not shrink it (enlargement). */
  readonly small: Uint8Array
}

export const SMALL_WIDTH = 32

export const TAG = { make: 'ReadbackCam', creator: 'Readback Tester' } as const
const XMP =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
  ` xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${TAG.creator}</rdf:li>` +
  '</rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'

export interface Pixels {
  readonly data: Buffer
  readonly width: number
  readonly height: number
}

/** Decodes any image to the reference's layout: RGBA, sRGB, 8 bits, first frame. */
export async function rgba(bytes: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(bytes)
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

async function firstFrameOfAnimated(bytes: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(bytes, { animated: true })
    .resize({ width: WIDTH })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const height = info.pageHeight ?? info.height
  return { data: data.subarray(0, info.width * height * 4), width: info.width, height }
}

function findTransparentSpot(ref: Sample['reference']): Sample['transparentSpot'] {
  const alphaAt = (x: number, y: number) => ref.data[(y * ref.width + x) * 4 + 3]!
  for (let y = 2; y < ref.height - 2; y += 3) {
    for (let x = 2; x < ref.width - 2; x += 3) {
      let clear = true
      for (let dy = -2; dy <= 2 && clear; dy++)
        for (let dx = -2; dx <= 2 && clear; dx++) clear = alphaAt(x + dx, y + dy) === 0
      if (clear) return { x, y }
    }
  }
  return undefined
}

export async function loadSample(name: string, bytes: Uint8Array): Promise<Sample> {
  const metadata = await sharp(bytes).metadata()
  const upright = sharp(bytes).autoOrient()
  const { width, height } = metadata.autoOrient
  const reference = await rgba(
    await upright.clone().resize({ width: WIDTH, withoutEnlargement: true }).png().toBuffer(),
  )
  const small = await upright.clone().resize({ width: SMALL_WIDTH }).png().toBuffer()
  const tagged = await upright
    .clone()
    .resize({ width: 2 * WIDTH, withoutEnlargement: true })
    .withExif({ IFD0: { Make: TAG.make } })
    .withIccProfile('p3')
    .withXmp(XMP)
    .png()
    .toBuffer()
  return {
    name,
    bytes,
    width,
    height,
    hasAlpha: metadata.hasAlpha,
    colour: metadata.channels - (metadata.hasAlpha ? 1 : 0) >= 3,
    reference,
    animatedReference: (metadata.pages ?? 1) > 1 ? await firstFrameOfAnimated(bytes) : undefined,
    transparentSpot: metadata.hasAlpha ? findTransparentSpot(reference) : undefined,
    tagged: new Uint8Array(tagged),
    small: new Uint8Array(small),
  }
}

export type Fields = Readonly<Record<string, string | undefined>>

/** One response, decoded far enough for every case: bytes, listed ignored options, metadata. */
export interface Output {
  readonly status: number
  readonly bytes: Uint8Array
  readonly ignored: readonly string[]
  readonly metadata: Metadata
}

/**
 * POST /api/compress with `format` and `width=WIDTH` unless the fields say otherwise; a field
 * set to undefined is left out (e.g. `width: undefined` for a request with no size).
 */
export async function compressTo(api: Api, format: OutputFormat, input: Uint8Array, fields: Fields = {}) {
  const all: Fields = { format, width: String(WIDTH), ...fields }
  const query = new URLSearchParams(
    Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined),
  )
  const response = await api.fetch(`/api/compress?${query}`, rawBody(input))
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200)
    throw new Error(`${query}: ${response.status} ${new TextDecoder().decode(bytes)}`)
  const ignored = response.headers.get('x-ignored-options')?.split(', ') ?? []
  return { status: response.status, bytes, ignored, metadata: await sharp(bytes).metadata() } satisfies Output
}

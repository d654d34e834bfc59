import { expect } from 'bun:test'
import { isPacked, type OutputFormat } from '../../src/formats/format-table.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { decode, type Decoded } from '../helpers/images.ts'
import { CORPUS, HAS_CORPUS, corpusFile, readManifest, type ManifestRow } from '../helpers/paths.ts'
import { multipart, post } from '../helpers/requests.ts'

/** One entry of GET /api/formats, as far as these suites use it. */
export interface ApiFormat {
  readonly id: string
  readonly mime: string
  readonly extensions: readonly string[]
  readonly input: boolean
  readonly output: boolean
  readonly animated: boolean
}

/**
 * Asked once at load time, not hard-coded, because test names are built from the readable and
 * writable sets and those follow the libvips build the server runs on.
 */
async function fetchFormats(): Promise<ApiFormat[]> {
  const api = await startApi()
  try {
    const body = (await (await api.fetch('/api/formats')).json()) as { formats: ApiFormat[] }
    return body.formats
  } finally {
    await api.stop()
  }
}

/**
 * For suites that send their uploads concurrently: the job timeout counts time spent waiting
 * for a worker, and on a 2-core machine the last of 30 full-size images waits longer than 30 s.
 */
export const CONCURRENT_SUITE = { jobTimeoutMs: 120_000 } as const

export const FORMATS: readonly ApiFormat[] = HAS_CORPUS ? await fetchFormats() : []
/**
 * Outputs written at the size asked for, every frame or the first. ICO is a container of fixed
 * icon sizes (format=ico): its suites are its own (tests/routes/compress-ico.test.ts and
 * tests/corpus/operations.test.ts).
 */
export const WRITABLE = FORMATS.filter((f) => f.output && !isPacked(f.id as OutputFormat)).map((f) => f.id)
export const ANIMATED_OUTPUTS = FORMATS.filter((f) => f.animated).map((f) => f.id)
export const ROWS: readonly ManifestRow[] = HAS_CORPUS ? readManifest(CORPUS) : []
export const BAD_ROWS = ROWS.filter((r) => r.file.startsWith('bad-'))

export function formatOfFile(file: string): ApiFormat | undefined {
  const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase()
  return FORMATS.find((f) => f.extensions.includes(extension))
}

/**
 * The JPEG XL photo is left out of the corpus-wide suites: its WebAssembly decoder takes
 * seconds for its 11 MP, so one conversion of it is tested (tests/routes/compress-heic-jxl).
 */
export const READABLE_ROWS = ROWS.filter(
  (r) => !r.file.startsWith('bad-') && !r.file.startsWith('jxl-') && formatOfFile(r.file)?.input,
)

export const formatById = (id: string): ApiFormat => FORMATS.find((f) => f.id === id)!

/** sharp names the container: AVIF decodes as `heif` (with AV1 compression). */
export const sharpName = (id: string): string => (id === 'avif' ? 'heif' : id)

/** libvips reads only the first frame of an APNG, so its frame count comes from the acTL chunk. */
export function apngFrames(bytes: Uint8Array): number | undefined {
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let offset = 8; offset + 8 <= bytes.length;) {
    const length = view.getUint32(offset)
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8))
    if (type === 'acTL') return view.getUint32(offset + 8)
    if (type === 'IDAT' || type === 'IEND') return undefined
    offset += 12 + length
  }
  return undefined
}

/** What a correct service must preserve about an input, learnt by decoding it here. */
export interface InputFacts {
  readonly file: string
  readonly bytes: Uint8Array
  readonly format: ApiFormat
  readonly decoded: Decoded
  /** Display size of one frame: EXIF orientation applied. */
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly orientation: number
  readonly hasAlpha: boolean
  /** Metadata that `strip` must remove, so an input carrying it cannot be returned as is. */
  readonly hasPrivateMetadata: boolean
}

const factsCache = new Map<string, Promise<InputFacts>>()

async function readFacts(file: string): Promise<InputFacts> {
  const bytes = await corpusFile(file)
  const decoded = await decode(bytes)
  const orientation = decoded.orientation ?? 1
  const swapped = orientation >= 5 && orientation <= 8
  const m = decoded.metadata
  return {
    file,
    bytes,
    format: formatOfFile(file)!,
    decoded,
    width: swapped ? decoded.height : decoded.width,
    height: swapped ? decoded.width : decoded.height,
    // A HEIF's several images are separate pictures, not frames: only the primary one is read.
    frames: formatOfFile(file)!.id === 'heic' ? 1 : (apngFrames(bytes) ?? decoded.pages),
    orientation,
    hasAlpha: m.hasAlpha ?? false,
    hasPrivateMetadata: Boolean(m.exif || m.xmp || m.iptc || m.comments?.length),
  }
}

export const inputFacts = (file: string): Promise<InputFacts> => {
  if (!factsCache.has(file)) factsCache.set(file, readFacts(file))
  return factsCache.get(file)!
}

export interface Compressed {
  readonly status: number
  readonly headers: Headers
  readonly bytes: Uint8Array
  readonly header: (name: string) => string | null
  readonly int: (name: string) => number
}

export async function compress(
  api: Api,
  input: Uint8Array,
  filename: string,
  fields: Record<string, string> = {},
): Promise<Compressed> {
  const response = await api.fetch('/api/compress', post(multipart(input, filename, fields)))
  const bytes = new Uint8Array(await response.arrayBuffer())
  const header = (name: string) => response.headers.get(name)
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    header,
    int: (name) => Number(header(name)),
  }
}

export interface ResizeRequest {
  readonly width?: number
  readonly height?: number
  readonly fit?: 'cover' | 'contain' | 'fill' | 'inside' | 'outside'
  readonly withoutEnlargement?: boolean
}

export interface Size {
  readonly width: number
  readonly height: number
}

/**
 * The documented resize semantics, written independently of the service, as exact (unrounded)
 * sizes: keep-ratio fits scale both sides by one factor, box fits produce the box, and
 * withoutEnlargement caps the factor at 1. Only boxes wholly smaller or wholly larger than the
 * input are modelled for box fits; partial overlaps have no documented size.
 */
export function expectedSize(input: Size, request: ResizeRequest): Size {
  const { width: w, height: h } = input
  const { width: W, height: H, fit = 'inside', withoutEnlargement = true } = request
  const byWidth = (W: number) => (withoutEnlargement && W > w ? input : { width: W, height: (h * W) / w })
  const byHeight = (H: number) => (withoutEnlargement && H > h ? input : { width: (w * H) / h, height: H })
  if (W === undefined && H === undefined) return input
  if (W === undefined) return byHeight(H!)
  if (H === undefined) return byWidth(W)
  // Integer cross-products pick the binding side without floating-point ties.
  const widthBinds = W * h <= H * w
  if (fit === 'inside') return widthBinds ? byWidth(W) : byHeight(H)
  if (fit === 'outside') return widthBinds ? byHeight(H) : byWidth(W)
  if (withoutEnlargement && W >= w && H >= h) return input
  return { width: W, height: H }
}

/**
 * An exact integer side must match; a fractional one may round either way, because sharp's
 * shrink-on-load (e.g. JPEG DCT scaling) can floor where plain rounding would round up.
 */
export function expectSize(actual: Size, exact: Size): void {
  const allowed = (e: number) => (e < 1 ? [1] : [Math.floor(e), Math.ceil(e)])
  expect(allowed(exact.width)).toContain(actual.width)
  expect(allowed(exact.height)).toContain(actual.height)
}

export const fieldsOf = (request: ResizeRequest): Record<string, string> =>
  Object.fromEntries(Object.entries(request).map(([k, v]) => [k, String(v)]))

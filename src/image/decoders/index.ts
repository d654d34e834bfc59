import { AppError } from '../../errors/app-error.ts'
import { decodeHeif } from './heif.ts'
import { decodeJxl } from './jxl.ts'
import { isJxl, readJxlHeader, type JxlHeader } from './jxl-header.ts'
import { jxlOxideMemoryBytes, jxlOxideVersion } from './jxl-oxide-module.ts'
import { libheif, libheifMemoryBytes, libheifOrigin, useLibheifModule } from './libheif-module.ts'
import { DecodeError } from './types.ts'
import { version as LIBHEIF_VERSION } from 'libheif-js/package.json'
import { version as JXL_OXIDE_VERSION } from 'jxl-oxide-wasm/package.json'

/**
 * The WebAssembly decoders, for the formats libvips as shipped with sharp cannot read: HEIF
 * (HEVC; left out of it for patents) and JPEG XL. The only file others import. Bytes in, a
 * PNG out that sharp reads like any upload (pixels plus the ICC profile they are in), so every
 * step after decoding is the same as for other formats. Nothing here knows about HTTP.
 */
export type DecodedFormat = 'heic' | 'jxl'
export { DecodeError }

export interface DecoderPixelLimits {
  readonly maxHeifPixels: number
  readonly maxJxlPixels: number
}

export interface DecoderSettings extends DecoderPixelLimits {
  /** A replacement libheif .wasm (IMGAPI_HEIF_WASM); empty for the embedded one. */
  readonly heifWasm: string
}

let settings: DecoderSettings = { heifWasm: '', maxHeifPixels: Infinity, maxJxlPixels: Infinity }

/** At start-up: a replacement module is compiled now, so a bad one stops the start, not a request. */
export function configureDecoders(next: DecoderSettings): void {
  if (next.heifWasm !== settings.heifWasm || next.heifWasm) useLibheifModule(next.heifWasm)
  settings = next
}

export function decodes(format: string): format is DecodedFormat {
  return format === 'heic' || format === 'jxl'
}

export interface DecoderInfo {
  readonly name: string
  readonly version: string
}

/**
 * Which decoder reads a format, and its version, for GET /api/formats. The packages are built
 * from the version they are numbered with (tests/image/decoders checks it against the modules),
 * so the server process need not start a decoder to name it: decoding runs in the workers. A
 * replacement libheif (IMGAPI_HEIF_WASM), compiled at start-up, is asked.
 */
export function decoderOf(format: DecodedFormat): DecoderInfo {
  if (format === 'heic') {
    const version = libheifOrigin() === 'embedded' ? LIBHEIF_VERSION : libheif().heif_get_version()
    return { name: 'libheif', version }
  }
  return { name: 'jxl-oxide', version: JXL_OXIDE_VERSION }
}

/** What the modules themselves report, for the test that keeps the two above honest. */
export function decoderModuleVersions(): { readonly libheif: string; readonly jxlOxide: string } {
  return { libheif: libheif().heif_get_version(), jxlOxide: jxlOxideVersion() }
}

export function libheifSource(): string {
  return libheifOrigin()
}

/** JPEG XL's header facts, or undefined for other bytes; throws CORRUPT_IMAGE for a damaged one. */
export function readJxl(bytes: Uint8Array): JxlHeader | undefined {
  if (!isJxl(bytes)) return undefined
  try {
    return readJxlHeader(bytes)
  } catch (error) {
    throw new AppError('CORRUPT_IMAGE', 'expected a complete JPEG XL header, received a damaged one', {
      cause: error,
    })
  }
}

/** A decoder's own pixel limit, applied from the header before any decoding; other formats pass. */
export function assertDecoderLimit(
  format: string,
  width: number,
  height: number,
  limits: DecoderPixelLimits,
): void {
  if (!decodes(format)) return
  const heif = format === 'heic'
  const max = heif ? limits.maxHeifPixels : limits.maxJxlPixels
  const pixels = width * height
  if (pixels <= max) return
  throw new AppError(
    'IMAGE_TOO_LARGE',
    `expected a ${heif ? 'HEIF' : 'JPEG XL'} image of at most ${max} pixels (${heif ? 'IMGAPI_MAX_HEIF_PIXELS' : 'IMGAPI_MAX_JXL_PIXELS'}: its decoder's memory is never given back), received ${width}x${height} = ${pixels} pixels`,
  )
}

let decodeCount = 0

/** How many decodes ran in this process: tests use it to prove a refusal came before decoding. */
export function decodesStarted(): number {
  return decodeCount
}

/** Decodes to a PNG sharp reads; a file the decoder rejects comes out as DecodeError. */
export async function decodeForSharp(format: DecodedFormat, bytes: Uint8Array): Promise<Uint8Array> {
  decodeCount++
  try {
    if (format === 'heic') return await decodeHeif(bytes, { maxPixels: settings.maxHeifPixels })
    return await decodeJxl(bytes, { maxPixels: settings.maxJxlPixels })
  } catch (error) {
    if (error instanceof DecodeError) throw error
    throw new DecodeError(`${format} decoder: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
}

/**
 * WebAssembly memory the decoders hold. It only grows (wasm32 memory is never given back), so
 * a worker process past a threshold should be replaced rather than kept.
 */
export function wasmMemoryBytes(): number {
  return libheifMemoryBytes() + jxlOxideMemoryBytes()
}

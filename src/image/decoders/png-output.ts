import { deflateSync } from 'node:zlib'
import { encodePngChunk, isPng, PNG_SIGNATURE, pngChunks } from '../png-chunks.ts'

/**
 * How decoded pixels reach sharp: as a PNG, because raw input to sharp cannot carry an ICC
 * profile and a PNG can (iCCP). The IDAT is stored, not compressed: libvips reads it back at
 * memory speed, and deflating tens of megabytes only to inflate them again would double the cost.
 */
export interface RawPixels {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
  /** Bytes from one row to the next, at least width x channels. */
  readonly stride: number
  readonly channels: 3 | 4
}

/** Chunks that say how to read the colours: replaced together when a profile is attached. */
const COLOUR_CHUNKS = new Set(['iCCP', 'sRGB', 'gAMA', 'cHRM', 'cICP'])

function iccpChunk(icc: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode('icc')
  // Name, NUL separator, compression method 0 (zlib), then the compressed profile.
  return encodePngChunk('iCCP', Buffer.concat([name, new Uint8Array([0, 0]), deflateSync(icc)]))
}

function header(width: number, height: number, depth: number, colourType: number): Uint8Array {
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr.set([depth, colourType, 0, 0, 0], 8)
  return encodePngChunk('IHDR', ihdr)
}

/** 8-bit RGB or RGBA pixels as an uncompressed PNG, with the profile they are in (if not sRGB). */
export function pixelsToPng(pixels: RawPixels, icc?: Uint8Array): Uint8Array {
  const { width, height, stride, channels, data } = pixels
  const row = width * channels
  // Each row starts with its filter type, 0 (none).
  const filtered = new Uint8Array((row + 1) * height)
  for (let y = 0; y < height; y++)
    filtered.set(data.subarray(y * stride, y * stride + row), y * (row + 1) + 1)
  return Buffer.concat([
    new Uint8Array(PNG_SIGNATURE),
    header(width, height, 8, channels === 4 ? 6 : 2),
    ...(icc ? [iccpChunk(icc)] : []),
    encodePngChunk('IDAT', deflateSync(filtered, { level: 0 })),
    encodePngChunk('IEND', new Uint8Array(0)),
  ])
}

/** A decoder's own PNG with its colour chunks replaced by one ICC profile, or by none (sRGB). */
export function withProfile(png: Uint8Array, icc: Uint8Array | undefined): Uint8Array {
  if (!isPng(png)) throw new Error('the decoder returned bytes that are not a PNG')
  const parts: Uint8Array[] = [png.subarray(0, PNG_SIGNATURE.length)]
  for (const chunk of pngChunks(png)) {
    if (COLOUR_CHUNKS.has(chunk.type)) continue
    parts.push(png.subarray(chunk.start, chunk.end))
    if (chunk.type === 'IHDR' && icc) parts.push(iccpChunk(icc))
  }
  return Buffer.concat(parts)
}

/** The 4 bytes of a PNG's cICP chunk (primaries, transfer, matrix, full range), if it has one. */
export function cicpOf(png: Uint8Array): Uint8Array | undefined {
  for (const chunk of pngChunks(png)) {
    if (chunk.type === 'cICP' && chunk.data.length === 4) return chunk.data
    if (chunk.type === 'IDAT') return undefined
  }
  return undefined
}

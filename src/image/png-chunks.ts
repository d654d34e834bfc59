/** Minimal PNG chunk walking and writing, shared by the metadata stripper, the APNG reader and the decoders. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const

export interface PngChunk {
  readonly type: string
  /** Offset of the chunk's length field. */
  readonly start: number
  /** Offset just past the chunk's CRC. */
  readonly end: number
  readonly data: Uint8Array
}

/** One chunk as bytes: length, type, data and the CRC over type and data. */
export function encodePngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  )
  out.set(data, 8)
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)))
  return out
}

export function isPng(bytes: Uint8Array): boolean {
  return PNG_SIGNATURE.every((value, i) => bytes[i] === value)
}

/** Yields chunks in order; stops quietly at the first truncated one (decoders report that). */
export function* pngChunks(bytes: Uint8Array): Generator<PngChunk> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset: number = PNG_SIGNATURE.length
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset)
    const end = offset + 12 + length
    if (end > bytes.length) return
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8))
    yield { type, start: offset, end, data: bytes.subarray(offset + 8, offset + 8 + length) }
    if (type === 'IEND') return
    offset = end
  }
}

/** Frame count from an APNG's acTL chunk, or undefined for a still PNG. */
export function apngFrameCount(bytes: Uint8Array): number | undefined {
  if (!isPng(bytes)) return undefined
  for (const chunk of pngChunks(bytes)) {
    if (chunk.type === 'acTL' && chunk.data.length >= 8) {
      return new DataView(chunk.data.buffer, chunk.data.byteOffset).getUint32(0)
    }
    if (chunk.type === 'IDAT') return undefined
  }
  return undefined
}

/**
 * Whether a palette PNG uses every entry its bit depth allows (256 at 8 bits). libimagequant
 * fills the palette only when it cannot reach the quality asked for with fewer colours, and
 * then every higher quality gives the very same file (checked on the corpus at several
 * qualities, bit depths, efforts and dithers; tests/image/search/palette.test.ts pins it).
 */
export function paletteIsFull(bytes: Uint8Array): boolean {
  if (!isPng(bytes)) return false
  let depth: number | undefined
  for (const chunk of pngChunks(bytes)) {
    if (chunk.type === 'IHDR' && chunk.data.length >= 10) {
      // Colour type 3 is indexed colour; any other has no palette to fill.
      if (chunk.data[9] !== 3) return false
      depth = chunk.data[8]
    }
    if (chunk.type === 'PLTE') return depth !== undefined && chunk.data.length / 3 === 1 << depth
    if (chunk.type === 'IDAT') return false
  }
  return false
}

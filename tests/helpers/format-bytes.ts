/*
 * Readers for the settings a format records in its own bytes and sharp's metadata() does not
 * report: JPEG quantisation tables, WebP chunk types, GIF interlacing, AVIF (ISO BMFF) property
 * boxes and the TIFF compression tag. Each is written from the format's specification, apart
 * from the service, so that a test reads back what the encoder really did.
 */

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length))

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Natural (row-major) index of each coefficient in the zigzag order DQT stores them in. */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
]

/** The JPEG's quantisation tables by table id, each in natural order (ITU T.81 B.2.4.1). */
export function jpegQuantTables(bytes: Uint8Array): Map<number, number[]> {
  const view = viewOf(bytes)
  const tables = new Map<number, number[]>()
  for (let offset = 2; offset + 4 <= bytes.length;) {
    const marker = bytes[offset + 1]!
    if (bytes[offset] !== 0xff || marker === 0xda) break
    const length = view.getUint16(offset + 2)
    if (marker === 0xdb) {
      for (let p = offset + 4; p < offset + 2 + length;) {
        const wide = bytes[p]! >> 4 === 1
        const id = bytes[p]! & 0x0f
        p += 1
        const table = new Array<number>(64)
        for (let k = 0; k < 64; k++) {
          table[ZIGZAG[k]!] = wide ? view.getUint16(p + 2 * k) : bytes[p + k]!
        }
        tables.set(id, table)
        p += wide ? 128 : 64
      }
    }
    offset += 2 + length
  }
  return tables
}

/** The luminance table of the JPEG standard (ITU T.81 Annex K, table K.1), in natural order. */
const ANNEX_K_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]

/** libjpeg's jpeg_set_quality(quality, force_baseline = TRUE) applied to a base table. */
export function scaledQuantTable(quality: number, base: readonly number[] = ANNEX_K_LUMA): number[] {
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - 2 * quality
  return base.map((value) => Math.min(255, Math.max(1, Math.floor((value * scale + 50) / 100))))
}

/** The qualities (1-100) whose table equals this JPEG's luma table; empty for a foreign table. */
export function jpegQualitiesOf(bytes: Uint8Array): number[] {
  const luma = jpegQuantTables(bytes).get(0)
  if (!luma) return []
  const qualities: number[] = []
  for (let q = 1; q <= 100; q++) {
    if (scaledQuantTable(q).every((value, i) => value === luma[i])) qualities.push(q)
  }
  return qualities
}

/**
 * The fourcc of every chunk in a WebP's RIFF container, in order (e.g. VP8X, ALPH, VP8), with
 * the chunks inside each animation frame (ANMF, whose payload starts with a 16-byte header).
 */
export function webpChunks(bytes: Uint8Array, start = 12, end = bytes.length): string[] {
  const view = viewOf(bytes)
  const chunks: string[] = []
  for (let offset = start; offset + 8 <= end;) {
    const size = view.getUint32(offset + 4, true)
    const fourcc = ascii(bytes, offset, 4)
    chunks.push(fourcc)
    if (fourcc === 'ANMF') chunks.push(...webpChunks(bytes, offset + 8 + 16, offset + 8 + size))
    offset += 8 + size + (size % 2)
  }
  return chunks
}

/** Whether each frame's image descriptor has its interlace flag set (GIF89a section 20). */
export function gifInterlaceFlags(bytes: Uint8Array): boolean[] {
  const tableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0)
  const skipSubBlocks = (p: number) => {
    while (bytes[p]! !== 0) p += bytes[p]! + 1
    return p + 1
  }
  const flags: boolean[] = []
  let p = 13 + tableSize(bytes[10]!)
  while (p < bytes.length && bytes[p] !== 0x3b) {
    if (bytes[p] === 0x21) {
      p = skipSubBlocks(p + 2)
    } else if (bytes[p] === 0x2c) {
      const packed = bytes[p + 9]!
      flags.push((packed & 0x40) !== 0)
      p = skipSubBlocks(p + 10 + tableSize(packed) + 1)
    } else {
      throw new Error(`unexpected GIF block 0x${bytes[p]!.toString(16)} at ${p}`)
    }
  }
  return flags
}

/** Payloads of the ISO BMFF boxes of the given type, looking inside meta/iprp/ipco. */
export function isoBoxes(bytes: Uint8Array, type: string): Uint8Array[] {
  const view = viewOf(bytes)
  const found: Uint8Array[] = []
  const walk = (start: number, end: number) => {
    for (let offset = start; offset + 8 <= end;) {
      let size = view.getUint32(offset)
      const boxType = ascii(bytes, offset + 4, 4)
      let header = 8
      if (size === 1) {
        size = Number(view.getBigUint64(offset + 8))
        header = 16
      } else if (size === 0) {
        size = end - offset
      }
      if (boxType === type) found.push(bytes.subarray(offset + header, offset + size))
      // meta is a full box: a version/flags word comes before its children.
      if (boxType === 'meta') walk(offset + header + 4, offset + size)
      if (boxType === 'iprp' || boxType === 'ipco') walk(offset + header, offset + size)
      offset += size
    }
  }
  walk(0, bytes.length)
  return found
}

/** Chroma subsampling recorded in an AVIF's AV1 codec configuration (av1C) box. */
export function avifChromaSubsampling(bytes: Uint8Array): '4:2:0' | '4:2:2' | '4:4:4' | 'monochrome' {
  const av1C = isoBoxes(bytes, 'av1C')[0]
  if (!av1C) throw new Error('no av1C box')
  const flags = av1C[2]!
  if (flags & 0x10) return 'monochrome'
  const x = (flags >> 3) & 1
  const y = (flags >> 2) & 1
  return x && y ? '4:2:0' : x ? '4:2:2' : '4:4:4'
}

/** The matrix coefficients of an AVIF's nclx colour box: 0 is identity (RGB kept as is). */
export function avifMatrixCoefficients(bytes: Uint8Array): number | undefined {
  const colr = isoBoxes(bytes, 'colr').find((box) => ascii(box, 0, 4) === 'nclx')
  return colr ? viewOf(colr).getUint16(8) : undefined
}

/** Value of the Compression tag (259) of a TIFF's first directory: 7 JPEG, 8 deflate. */
export function tiffCompression(bytes: Uint8Array): number | undefined {
  const view = viewOf(bytes)
  const little = bytes[0] === 0x49
  const ifd = view.getUint32(4, little)
  const entries = view.getUint16(ifd, little)
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + 12 * i
    if (view.getUint16(entry, little) === 259) return view.getUint16(entry + 8, little)
  }
  return undefined
}

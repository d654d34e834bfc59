import { boxes } from './bmff.ts'

/**
 * The JPEG XL header facts the limits need before decoding (ISO/IEC 18181-1: SizeHeader, then
 * the start of ImageMetadata for the orientation and the animation flag). libvips as shipped
 * with sharp does not read JPEG XL at all, so nothing else can tell the size.
 */
export interface JxlHeader {
  /** Display size: orientations 5-8 swap the stored width and height. */
  readonly width: number
  readonly height: number
  readonly orientation: number
  readonly animated: boolean
  readonly hasAlpha: boolean
  /** More than 8 bits per sample, or floating point. */
  readonly highDepth: boolean
}

const CODESTREAM = [0xff, 0x0a]
const CONTAINER = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]
/** Width from height for SizeHeader.ratio 1-7. */
const RATIOS: readonly (readonly [number, number])[] = [
  [1, 1],
  [12, 10],
  [4, 3],
  [3, 2],
  [16, 9],
  [5, 4],
  [2, 1],
]

class BitReader {
  private at = 0
  constructor(private readonly bytes: Uint8Array) {}
  /** Bits are read least significant first, as the codestream stores them. */
  bits(count: number): number {
    let value = 0
    for (let i = 0; i < count; i++, this.at++) {
      const byte = this.bytes[this.at >> 3]
      if (byte === undefined) throw new Error('the JPEG XL header ends early')
      value += ((byte >> (this.at & 7)) & 1) * 2 ** i
    }
    return value
  }
  flag(): boolean {
    return this.bits(1) === 1
  }
  /** U32(): a 2-bit selector, then one of four distributions (offset + bits). */
  u32(...choices: readonly (readonly [number, number])[]): number {
    const [offset, bits] = choices[this.bits(2)]!
    return offset + this.bits(bits)
  }
}

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((v, i) => bytes[i] === v)

export function isJxl(bytes: Uint8Array): boolean {
  return startsWith(bytes, CODESTREAM) || startsWith(bytes, CONTAINER)
}

/** The codestream's first bytes: bare, or from the container's jxlc or first jxlp box. */
function codestreamStart(bytes: Uint8Array): Uint8Array {
  if (startsWith(bytes, CODESTREAM)) return bytes
  for (const box of boxes(bytes)) {
    if (box.type === 'jxlc') return box.body
    // jxlp: a 4-byte sequence index, then a part of the codestream (the header is in the first).
    if (box.type === 'jxlp') return box.body.subarray(4)
  }
  throw new Error('the JPEG XL container has no codestream box')
}

function dimension(reader: BitReader, small: boolean): number {
  if (small) return (reader.bits(5) + 1) * 8
  return reader.u32([1, 9], [1, 13], [1, 18], [1, 30])
}

function sizeHeader(reader: BitReader): { width: number; height: number } {
  const small = reader.flag()
  const height = dimension(reader, small)
  const ratio = reader.bits(3)
  if (ratio === 0) return { width: dimension(reader, small), height }
  const [num, den] = RATIOS[ratio - 1]!
  return { width: Math.floor((height * num) / den), height }
}

function skipPreview(reader: BitReader): void {
  const div8 = reader.flag()
  const side = () =>
    div8 ? reader.u32([16, 0], [32, 0], [1, 5], [33, 9]) : reader.u32([1, 6], [65, 8], [321, 10], [1345, 12])
  side()
  if (reader.bits(3) === 0) side()
}

function skipAnimation(reader: BitReader): void {
  reader.u32([100, 0], [1000, 0], [1, 10], [1, 30])
  reader.u32([1, 0], [1001, 0], [1, 8], [1, 10])
  reader.u32([0, 0], [0, 3], [0, 16], [0, 32])
  reader.flag()
}

/** BitDepth: integer samples of 8/10/12/n bits, or floating point. */
function isHighDepth(reader: BitReader): boolean {
  if (reader.flag()) {
    reader.u32([32, 0], [16, 0], [24, 0], [1, 6])
    reader.bits(4)
    return true
  }
  return reader.u32([8, 0], [10, 0], [12, 0], [1, 6]) > 8
}

/** Whether the first extra channel is alpha (where encoders put it): d_alpha, or type 0. */
function firstExtraIsAlpha(reader: BitReader): boolean {
  const count = reader.u32([0, 0], [1, 0], [2, 4], [1, 12])
  if (count === 0) return false
  return reader.flag() || reader.u32([0, 0], [1, 0], [2, 4], [18, 6]) === 0
}

interface Metadata {
  orientation: number
  animated: boolean
  hasAlpha: boolean
  highDepth: boolean
}

/** ImageMetadata up to the first extra channel: all that the limits and the plan use. */
function readMetadata(reader: BitReader): Metadata {
  const found: Metadata = { orientation: 1, animated: false, hasAlpha: false, highDepth: false }
  if (reader.flag()) return found // all_default: 8-bit, no alpha, upright
  if (reader.flag()) {
    found.orientation = reader.bits(3) + 1
    if (reader.flag()) sizeHeader(reader)
    if (reader.flag()) skipPreview(reader)
    found.animated = reader.flag()
    if (found.animated) skipAnimation(reader)
  }
  found.highDepth = isHighDepth(reader)
  reader.flag() // modular_16bit_buffers
  found.hasAlpha = firstExtraIsAlpha(reader)
  return found
}

export function readJxlHeader(bytes: Uint8Array): JxlHeader {
  const stream = codestreamStart(bytes)
  if (!startsWith(stream, CODESTREAM)) throw new Error('the JPEG XL codestream has no signature')
  const reader = new BitReader(stream.subarray(2))
  const { width, height } = sizeHeader(reader)
  const metadata = readMetadata(reader)
  const swapped = metadata.orientation >= 5
  return { ...metadata, width: swapped ? height : width, height: swapped ? width : height }
}

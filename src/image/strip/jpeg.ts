/**
 * Removes EXIF, XMP, IPTC, comments and trailing data from a JPEG without touching the
 * compressed pixels: a lossless optimisation. Keeps JFIF, the ICC profile and the Adobe
 * marker (needed to decode CMYK correctly). Returns undefined when the stream is not a
 * well-formed JPEG, so the caller falls back to re-encoding.
 */
const SOI = 0xd8
const EOI = 0xd9
const SOS = 0xda

const startsWithText = (bytes: Uint8Array, offset: number, text: string) =>
  [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0))

function keepSegment(bytes: Uint8Array, marker: number, payload: number): boolean {
  if (marker === 0xfe) return false // COM
  if (marker === 0xe0) return startsWithText(bytes, payload, 'JFIF') || startsWithText(bytes, payload, 'JFXX')
  if (marker === 0xe2) return startsWithText(bytes, payload, 'ICC_PROFILE')
  if (marker === 0xee) return startsWithText(bytes, payload, 'Adobe')
  return marker < 0xe0 || marker > 0xef // drop every other APPn (EXIF/XMP/IPTC/MPF/...)
}

export function stripJpegMetadata(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return undefined
  const parts: Uint8Array[] = [bytes.subarray(0, 2)]
  let offset = 2
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined
    const marker = bytes[offset + 1]!
    if (marker === 0xff) {
      offset++ // fill byte
      continue
    }
    if (marker === SOS) {
      const end = findEndOfImage(bytes, offset)
      if (end === undefined) return undefined
      parts.push(bytes.subarray(offset, end))
      return Buffer.concat(parts)
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!
    const next = offset + 2 + length
    if (length < 2 || next > bytes.length) return undefined
    if (keepSegment(bytes, marker, offset + 4)) parts.push(bytes.subarray(offset, next))
    offset = next
  }
  return undefined
}

/** In entropy-coded data 0xFF is followed by 0x00 or RSTn, so the first FFD9 is the real end. */
function findEndOfImage(bytes: Uint8Array, from: number): number | undefined {
  for (let i = from; i + 1 < bytes.length; i++) {
    if (bytes[i] === 0xff && bytes[i + 1] === EOI) return i + 2
  }
  return undefined
}

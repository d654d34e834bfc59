/**
 * Drops the EXIF and XMP chunks of a WebP file and clears their VP8X flags. Lossless;
 * undefined when the RIFF structure is damaged.
 */
const VP8X_EXIF = 0x08
const VP8X_XMP = 0x04

const fourcc = (bytes: Uint8Array, offset: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + 4))

export function stripWebpMetadata(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 12 || fourcc(bytes, 0) !== 'RIFF' || fourcc(bytes, 8) !== 'WEBP') return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const kept: Uint8Array[] = []
  let offset = 12
  while (offset + 8 <= bytes.length) {
    const type = fourcc(bytes, offset)
    const size = view.getUint32(offset + 4, true)
    const end = offset + 8 + size + (size % 2)
    if (end > bytes.length + (size % 2)) return undefined
    // A copy, never a view: clearing VP8X flags must not write into the caller's buffer.
    const chunk = new Uint8Array(bytes.subarray(offset, Math.min(end, bytes.length)))
    if (type === 'VP8X') chunk[8] = chunk[8]! & ~(VP8X_EXIF | VP8X_XMP)
    if (type !== 'EXIF' && type !== 'XMP ') kept.push(chunk)
    offset = end
  }
  const body = Buffer.concat(kept)
  const header = new Uint8Array(12)
  header.set(bytes.subarray(0, 12))
  new DataView(header.buffer).setUint32(4, body.length + 4, true)
  return Buffer.concat([header, body])
}

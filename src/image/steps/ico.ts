/*
 * The ICO container: a directory of images, each one a PNG here (Windows Vista and every
 * browser read PNG frames). A 6-byte header, a 16-byte entry per image, then the images. A
 * side of 256 is written as 0, since the entry has one byte for it.
 */

export interface IcoImage {
  readonly width: number
  readonly height: number
  readonly png: Uint8Array
}

const HEADER = 6
const ENTRY = 16

export function packIco(images: readonly IcoImage[]): Uint8Array {
  const size = HEADER + ENTRY * images.length + images.reduce((sum, image) => sum + image.png.length, 0)
  const bytes = new Uint8Array(size)
  const view = new DataView(bytes.buffer)
  view.setUint16(2, 1, true) // type: icon
  view.setUint16(4, images.length, true)
  let offset = HEADER + ENTRY * images.length
  images.forEach((image, i) => {
    const entry = HEADER + i * ENTRY
    view.setUint8(entry, image.width % 256)
    view.setUint8(entry + 1, image.height % 256)
    view.setUint16(entry + 4, 1, true) // colour planes
    view.setUint16(entry + 6, 32, true) // bits per pixel
    view.setUint32(entry + 8, image.png.length, true)
    view.setUint32(entry + 12, offset, true)
    bytes.set(image.png, offset)
    offset += image.png.length
  })
  return bytes
}

/** The images an ICO directory lists, or undefined when the bytes are not one. */
export function readIco(bytes: Uint8Array): IcoImage[] | undefined {
  if (bytes.length < HEADER) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint16(0, true) !== 0 || view.getUint16(2, true) !== 1) return undefined
  const count = view.getUint16(4, true)
  const images: IcoImage[] = []
  for (let i = 0; i < count; i++) {
    const entry = HEADER + i * ENTRY
    if (entry + ENTRY > bytes.length) return undefined
    const length = view.getUint32(entry + 8, true)
    const offset = view.getUint32(entry + 12, true)
    if (offset + length > bytes.length) return undefined
    images.push({
      width: view.getUint8(entry) || 256,
      height: view.getUint8(entry + 1) || 256,
      png: bytes.subarray(offset, offset + length),
    })
  }
  return images
}

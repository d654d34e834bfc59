/*
 * How many frames an image has, read from its container in the browser (the API reports frames
 * only of its output), so the page can say what each operation does to an animation before it
 * is sent: GIF image descriptors, WebP ANMF chunks, the APNG acTL chunk. Anything else is one.
 */

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length))

/** GIF: walks the blocks, counting image descriptors; extensions and image data are skipped. */
function gifFrames(bytes: Uint8Array): number {
  const skipSubBlocks = (at: number) => {
    while (at < bytes.length && bytes[at]! > 0) at += bytes[at]! + 1
    return at + 1
  }
  const flags = bytes[10] ?? 0
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0)
  let frames = 0
  while (at < bytes.length) {
    const block = bytes[at]
    if (block === 0x21) at = skipSubBlocks(at + 2)
    else if (block === 0x2c) {
      frames++
      const local = bytes[at + 9] ?? 0
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0)
      at = skipSubBlocks(at + 1)
    } else break
  }
  return Math.max(1, frames)
}

/** WebP: the chunks after the RIFF header; each ANMF is a frame. */
function webpFrames(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let frames = 0
  for (let at = 12; at + 8 <= bytes.length;) {
    if (ascii(bytes, at, 4) === 'ANMF') frames++
    const size = view.getUint32(at + 4, true)
    at += 8 + size + (size % 2)
  }
  return Math.max(1, frames)
}

/** PNG: an acTL chunk before the image data names the number of frames. */
function pngFrames(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 8; at + 12 <= bytes.length;) {
    const size = view.getUint32(at)
    const type = ascii(bytes, at + 4, 4)
    if (type === 'acTL') return Math.max(1, view.getUint32(at + 8))
    if (type === 'IDAT') break
    at += 12 + size
  }
  return 1
}

export async function frameCount(file: Blob): Promise<number> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  if (ascii(bytes, 0, 4) === 'GIF8') return gifFrames(bytes)
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpFrames(bytes)
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return pngFrames(bytes)
  return 1
}

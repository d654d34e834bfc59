/** Where a PNG's IHDR puts the bit depth and the colour type, after the signature and the chunk's head. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const BIT_DEPTH_AT = 24
const COLOUR_TYPE_AT = 25
const PALETTE = 3
/** A palette's entries at most: its index is one byte. */
export const PALETTE_COLOURS = 256

/**
 * A PNG's bits per channel and whether its colours are a palette (whose entries have 8 bits a
 * channel, whatever the index's size), read from its header; undefined for any other file.
 */
export async function pngDepth(blob: Blob): Promise<{ bits: number; palette: boolean } | undefined> {
  const head = new Uint8Array(await blob.slice(0, COLOUR_TYPE_AT + 1).arrayBuffer())
  if (head.length <= COLOUR_TYPE_AT || SIGNATURE.some((byte, i) => head[i] !== byte)) return undefined
  const palette = head[COLOUR_TYPE_AT] === PALETTE
  return { bits: palette ? 8 : head[BIT_DEPTH_AT]!, palette }
}

/* Decoded pixels as more than one study starts from them. */
import { sharp } from '../../src/image/sharp.ts'

/** The image upright, in sRGB, at most `width` pixels wide (never enlarged), as raw 8-bit pixels. */
export function uprightPixels(input: Uint8Array, width: number) {
  return sharp(input)
    .autoOrient()
    .toColourspace('srgb')
    .resize({ width, withoutEnlargement: true })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true })
}

import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { paletteIsFull } from '../../../src/image/png-chunks.ts'
import { fixture } from '../../helpers/paths.ts'

const PHOTO = 'photo-exif-orientation-6.jpg'

const palette = (input: Uint8Array, quality: number, colours = 256) =>
  sharp(input).png({ palette: true, quality, colours, effort: 7, compressionLevel: 0 }).toBuffer()

describe('a full palette', () => {
  test('is told from the PNG: every entry its bit depth allows, only for indexed colour', async () => {
    const photo = await fixture(PHOTO)
    expect(paletteIsFull(await palette(photo, 100))).toBe(true)
    // Four flat colours fit with room to spare.
    const flat = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c03020' } })
      .composite([{ input: { create: { width: 32, height: 32, channels: 3, background: '#2040c0' } } }])
      .png()
      .toBuffer()
    expect(paletteIsFull(await palette(flat, 100))).toBe(false)
    // Two colours at one bit a pixel fill it.
    expect(paletteIsFull(await palette(photo, 100, 2))).toBe(true)
    expect(paletteIsFull(await sharp(photo).png().toBuffer())).toBe(false)
    expect(paletteIsFull(photo)).toBe(false)
  })

  // What the palette search relies on (search/auto-quality.ts): libimagequant fills the palette
  // only when it cannot reach the quality asked for, and then a higher quality changes nothing.
  // An upgrade that changes this fails here, not in a slower or worse search.
  test('gives the very same file at every higher quality', async () => {
    const photo = await fixture(PHOTO)
    let checked = 0
    for (const colours of [256, 16]) {
      const files = new Map<number, Buffer>()
      for (const quality of [40, 60, 80, 90, 100]) files.set(quality, await palette(photo, quality, colours))
      const qualities = [...files.keys()]
      for (const [i, low] of qualities.entries()) {
        if (!paletteIsFull(files.get(low)!)) continue
        for (const high of qualities.slice(i + 1)) {
          expect(files.get(high)!.equals(files.get(low)!), `${colours} colours, ${low} against ${high}`).toBe(
            true,
          )
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(2)
  })
})

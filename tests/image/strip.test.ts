import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { stripJpegMetadata } from '../../src/image/strip/jpeg.ts'
import { stripPngMetadata } from '../../src/image/strip/png.ts'
import { stripWebpMetadata } from '../../src/image/strip/webp.ts'
import { containsAscii, decode, jpegWithGps } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'

const pixels = (bytes: Uint8Array) => sharp(bytes).raw().toBuffer()

describe('lossless metadata stripping', () => {
  test('removes EXIF with GPS from a JPEG and leaves every pixel identical', async () => {
    const input = await jpegWithGps()
    const stripped = stripJpegMetadata(input)!
    expect(stripped.length).toBeLessThan(input.length)
    expect((await decode(stripped)).hasExif).toBe(false)
    expect(containsAscii(stripped, 'LeakyPhone')).toBe(false)
    expect((await pixels(stripped)).equals(await pixels(input))).toBe(true)
  })

  test('keeps the ICC profile of a JPEG so colours are unchanged', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const stripped = stripJpegMetadata(input)!
    const decoded = await decode(stripped)
    expect(decoded.hasIcc).toBe(true)
    expect(decoded.hasExif).toBe(false)
  })

  test('removes text chunks from a PNG and leaves every pixel identical', async () => {
    const input = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#08f8' } })
      .withExif({ IFD0: { Make: 'LeakyPhone' } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><secret>LeakyXmp</secret></x:xmpmeta>')
      .png()
      .toBuffer()
    const before = await decode(input)
    expect(before.hasXmp && before.hasExif).toBe(true)
    const stripped = stripPngMetadata(input)!
    const after = await decode(stripped)
    expect(after.hasXmp || after.hasExif).toBe(false)
    expect(stripped.length).toBeLessThan(input.length)
    expect((await pixels(stripped)).equals(await pixels(input))).toBe(true)
  })

  test('removes EXIF and XMP chunks from a WebP, clears their flags, keeps the pixels', async () => {
    const input = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#f808' } })
      .withExif({ IFD0: { Make: 'LeakyPhone' } })
      .webp({ lossless: true })
      .toBuffer()
    const original = Buffer.from(input)
    const stripped = stripWebpMetadata(input)!
    expect(input.equals(original)).toBe(true)
    expect(containsAscii(stripped, 'LeakyPhone')).toBe(false)
    const decoded = await decode(stripped)
    expect(decoded.hasExif).toBe(false)
    expect(new DataView(stripped.buffer, stripped.byteOffset).getUint32(4, true)).toBe(stripped.length - 8)
    expect((await pixels(stripped)).equals(await pixels(input))).toBe(true)
  })

  test('returns undefined for damaged streams instead of guessing', async () => {
    expect(stripJpegMetadata(await fixture('bad-corrupt-header.jpg'))).toBeUndefined()
    expect(stripPngMetadata(await fixture('bad-truncated.png'))).toBeUndefined()
    expect(stripWebpMetadata(new Uint8Array([1, 2, 3]))).toBeUndefined()
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { containsAscii, decode, decodePixels, jpegWithGps } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'

describe('POST /api/compress: image behaviour on the fixture set', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())
  const compress = async (input: Uint8Array, query: string) => {
    const response = await api.fetch(`/api/compress?${query}`, rawBody(input))
    expect(response.status).toBe(200)
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
  }

  test('applies EXIF orientation: a 450x600 photo tagged 6 comes out 600x450 and untagged', async () => {
    const { bytes } = await compress(await fixture('photo-exif-orientation-6.jpg'), 'format=jpeg')
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height]).toEqual([600, 450])
    expect(decoded.orientation).toBeUndefined()
  })

  test('strips EXIF and GPS by default, for every output format', async () => {
    const input = await jpegWithGps()
    for (const format of ['jpeg', 'png', 'webp', 'avif', 'tiff']) {
      const { bytes } = await compress(input, `format=${format}`)
      const decoded = await decode(bytes)
      expect(decoded.hasExif, format).toBe(false)
      expect(containsAscii(bytes, 'LeakyPhone'), format).toBe(false)
      expect(containsAscii(bytes, 'GPS'), format).toBe(false)
    }
  })

  test('keeps EXIF and ICC with metadata=keep, with the orientation applied and reset to 1', async () => {
    const { bytes } = await compress(
      await fixture('photo-exif-orientation-6.jpg'),
      'metadata=keep&format=webp',
    )
    const decoded = await decode(bytes)
    expect([decoded.hasExif, decoded.hasIcc, decoded.orientation]).toEqual([true, true, 1])
    expect([decoded.width, decoded.height]).toEqual([600, 450])
    const gps = await compress(await jpegWithGps(), 'metadata=keep')
    expect(containsAscii(gps.bytes, 'LeakyPhone')).toBe(true)
  })

  test('converts colour to sRGB when stripping a ProPhoto profile', async () => {
    const input = await fixture('png-tiny-1x1-prophoto-icc.png')
    const { bytes } = await compress(input, 'format=png&lossless=true')
    const decoded = await decode(bytes)
    expect(decoded.hasIcc).toBe(false)
    const stored = await sharp(input).keepIccProfile().raw().toBuffer()
    const viaProfile = await sharp(input).raw().toBuffer()
    const after = await sharp(bytes).raw().toBuffer()
    expect(viaProfile.equals(stored)).toBe(false)
    expect(after.equals(viaProfile)).toBe(true)
  })

  test.each([
    ['gif-animated-10frames.gif', 10],
    ['webp-animated-10frames.webp', 10],
    ['png-apng-animated-ball.png', 20],
  ])('keeps every frame of %s for gif and webp output, and one frame otherwise', async (name, frames) => {
    const input = await fixture(name)
    for (const format of ['gif', 'webp']) {
      const { bytes } = await compress(input, `format=${format}`)
      const decoded = await decode(bytes)
      expect(decoded.pages, `${name} -> ${format}`).toBe(frames)
      const first = await sharp(bytes, { page: 0 }).raw().toBuffer()
      const middle = await sharp(bytes, { page: Math.floor(frames / 2) })
        .raw()
        .toBuffer()
      expect(first.equals(middle)).toBe(false)
    }
    const still = await decode((await compress(input, 'format=png')).bytes)
    expect(still.pages).toBe(1)
  })

  test('resizes animations frame by frame', async () => {
    const { bytes, response } = await compress(
      await fixture('gif-animated-10frames.gif'),
      'format=webp&width=185',
    )
    const decoded = await decode(bytes)
    // 285 x 185/370 = 142.5: either rounding is a faithful half-size frame.
    expect([decoded.pages, decoded.width]).toEqual([10, 185])
    expect([142, 143]).toContain(decoded.height)
    expect(response.headers.get('x-image-height')).toBe(String(decoded.height))
  })

  test('gives smaller files for lower quality', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    for (const format of ['jpeg', 'webp', 'avif']) {
      const sizes: number[] = []
      for (const quality of [30, 60, 90])
        sizes.push((await compress(input, `format=${format}&quality=${quality}`)).bytes.length)
      expect(sizes[0]!, format).toBeLessThan(sizes[1]!)
      expect(sizes[1]!, format).toBeLessThan(sizes[2]!)
    }
  })

  test.each([
    ['cover', 200, 200, [200, 200]],
    ['contain', 200, 200, [200, 200]],
    ['fill', 200, 100, [200, 100]],
    ['inside', 200, 200, [200, 150]],
    ['outside', 200, 200, [267, 200]],
  ] as const)('fit=%s into %dx%d gives %j', async (fit, width, height, expected) => {
    const { bytes } = await compress(
      await fixture('photo-exif-orientation-6.jpg'),
      `width=${width}&height=${height}&fit=${fit}`,
    )
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height]).toEqual([...expected])
  })

  test('never enlarges by default, and enlarges when withoutEnlargement=false', async () => {
    const input = await fixture('tiff-rgb-uncompressed.tiff')
    expect((await decode((await compress(input, 'width=500')).bytes)).width).toBe(246)
    expect((await decode((await compress(input, 'width=500&withoutEnlargement=false')).bytes)).width).toBe(
      500,
    )
  })

  test('writes every output format from a TIFF and decodes each back fully', async () => {
    const input = await fixture('tiff-rgb-uncompressed.tiff')
    for (const [format, expected] of [
      ['jpeg', 'jpeg'],
      ['png', 'png'],
      ['webp', 'webp'],
      ['avif', 'heif'],
      ['gif', 'gif'],
      ['tiff', 'tiff'],
    ]) {
      const { bytes } = await compress(input, `format=${format}`)
      const decoded = await decode(bytes)
      expect([decoded.format, decoded.width, decoded.height]).toEqual([expected, 246, 345])
      await decodePixels(bytes)
    }
  })
})

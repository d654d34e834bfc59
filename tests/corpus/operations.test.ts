import { describe, expect, test } from 'bun:test'
import sharp, { type Stats } from 'sharp'
import { readIco } from '../../src/image/steps/index.ts'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip, corpusFile } from '../helpers/paths.ts'
import { frameOf, meanDifference, pixelAt, rawOf } from '../helpers/pixels.ts'
import { multipart, post } from '../helpers/requests.ts'

/*
 * The operations on real corpus images of at most about a megapixel, each output decoded by
 * sharp and compared with what sharp makes of the same input (pixel for pixel where the output
 * is lossless), or with a statistic that must move the right way.
 */
announceCorpusSkip('corpus operations')

/** 1024x772 lossy WebP photo; 500x333 CMYK JPEG; 450x600 stored, EXIF 8; RGBA screenshot. */
const PHOTO = 'webp-lossy-photo-tree.webp'
const CMYK = 'photo-cmyk-icc.jpg'
const TURNED = 'photo-exif-orientation-8.jpg'
const RGBA = 'png-screenshot-rgba-marble.png'
const LOSSLESS = 'format=png&lossless=true'

describe.skipIf(!HAS_CORPUS)('corpus operations', () => {
  const api = apiForSuite()
  const compress = async (file: string | Uint8Array, query: string) =>
    (await compressOk(api(), typeof file === 'string' ? await corpusFile(file) : file, query)).bytes

  test('crop equals sharp’s extract of the upright image, pixel for pixel, on each input', async () => {
    for (const file of [PHOTO, TURNED, RGBA]) {
      const input = await corpusFile(file)
      const region = { left: 31, top: 17, width: 240, height: 160 }
      const cropped = await rawOf(await compress(file, `crop=31,17,240,160&${LOSSLESS}`))
      const expected = await rawOf(sharp(input).autoOrient().extract(region).png())
      expect(cropped.data.equals(expected.data), file).toBe(true)
    }
  })

  test('flip and flop mirror known pixels; rotate=90 swaps the dimensions', async () => {
    const input = await rawOf(sharp(await corpusFile(PHOTO)).png())
    const flipped = await rawOf(await compress(PHOTO, `flip=true&${LOSSLESS}`))
    const flopped = await rawOf(await compress(PHOTO, `flop=true&${LOSSLESS}`))
    for (const [x, y] of [
      [0, 0],
      [500, 300],
      [1023, 771],
    ] as const) {
      expect(pixelAt(flipped, x, y)).toEqual(pixelAt(input, x, 771 - y))
      expect(pixelAt(flopped, x, y)).toEqual(pixelAt(input, 1023 - x, y))
    }
    const turned = await decode(await compress(PHOTO, 'rotate=90'))
    expect([turned.width, turned.height]).toEqual([772, 1024])
  })

  test('trim removes a known border from a real photo', async () => {
    const framed = await sharp(await corpusFile(CMYK))
      .extend({ top: 9, bottom: 9, left: 21, right: 21, background: '#ffffff' })
      .jpeg({ quality: 98 })
      .toBuffer()
    const trimmed = await decode(await compress(framed, 'trim=30&format=png'))
    expect(Math.abs(trimmed.width - 500)).toBeLessThanOrEqual(2)
    expect(Math.abs(trimmed.height - 333)).toBeLessThanOrEqual(2)
  })

  test('pad adds the exact pixels in the exact colour', async () => {
    const padded = await rawOf(await compress(PHOTO, `pad=3,4,5,6&background=%23204060&${LOSSLESS}`))
    expect([padded.width, padded.height]).toEqual([1034, 780])
    for (const [x, y] of [
      [0, 0],
      [5, 400],
      [1030, 400],
      [500, 778],
      [500, 1],
    ] as const)
      expect(pixelAt(padded, x, y).slice(0, 3)).toEqual([0x20, 0x40, 0x60])
  })

  test('each adjustment moves its statistic the right way', async () => {
    const plain = await sharp(await compress(PHOTO, LOSSLESS)).stats()
    const stats = async (query: string) => sharp(await compress(PHOTO, `${query}&${LOSSLESS}`)).stats()
    const mean = (s: Stats) => s.channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3
    expect(mean(await stats('brightness=1.4'))).toBeGreaterThan(mean(plain) + 10)
    expect((await stats('blur=3')).sharpness).toBeLessThan(plain.sharpness)
    expect((await stats('sharpen=1.5')).sharpness).toBeGreaterThan(plain.sharpness)
    expect((await stats('contrast=40')).channels[1]!.stdev).toBeGreaterThan(plain.channels[1]!.stdev)
    const grey = (await stats('greyscale=true')).channels
    expect(grey.length === 1 || (grey[0]!.mean === grey[1]!.mean && grey[1]!.mean === grey[2]!.mean)).toBe(
      true,
    )
  })

  test('a watermark lands at its position with its opacity', async () => {
    const mark = await sharp({ create: { width: 100, height: 50, channels: 4, background: '#00ff00' } })
      .png()
      .toBuffer()
    const form = multipart(await corpusFile(PHOTO), PHOTO, {
      overlayPosition: 'bottom-left',
      overlayOpacity: '0.5',
      format: 'png',
      lossless: 'true',
    })
    form.append('overlay', new File([mark as Uint8Array<ArrayBuffer>], 'mark.png'))
    const response = await api().fetch('/api/compress', post(form))
    expect(response.status).toBe(200)
    const out = await rawOf(new Uint8Array(await response.arrayBuffer()))
    const input = await rawOf(sharp(await corpusFile(PHOTO)).png())
    const [r, g, b] = pixelAt(out, 10, 760)
    const [r0, g0, b0] = pixelAt(input, 10, 760)
    expect(Math.abs(g! - (255 + g0!) / 2)).toBeLessThanOrEqual(2)
    expect(Math.abs(r! - r0! / 2)).toBeLessThanOrEqual(2)
    expect(Math.abs(b! - b0! / 2)).toBeLessThanOrEqual(2)
    expect(pixelAt(out, 500, 300).slice(0, 3)).toEqual(pixelAt(input, 500, 300).slice(0, 3))
  })

  test('radius makes the corner pixels transparent', async () => {
    const out = await rawOf(await compress(PHOTO, `radius=60&${LOSSLESS}`))
    expect(out.channels).toBe(4)
    for (const [x, y] of [
      [0, 0],
      [1023, 0],
      [0, 771],
      [1023, 771],
    ] as const)
      expect(pixelAt(out, x, y)[3]).toBe(0)
    expect(pixelAt(out, 512, 386)[3]).toBe(255)
  })

  test('format=ico is read back with its three sizes', async () => {
    const images = readIco(await compress(RGBA, 'format=ico'))!
    expect(images.map((image) => image.width)).toEqual([16, 32, 48])
    for (const image of images) expect((await sharp(image.png).metadata()).width).toBe(image.width)
  })

  for (const file of ['gif-animated-10frames.gif', 'webp-animated-10frames.webp']) {
    test(`${file}: turned, trimmed and rounded frame by frame, every frame kept`, async () => {
      const input = await corpusFile(file)
      const turned = await rawOf(await compress(input, 'rotate=90&format=webp&lossless=true'), {
        alpha: true,
      })
      const source = await rawOf(sharp(input, { animated: true }), { alpha: true })
      expect([turned.width, turned.height, turned.frames]).toEqual([source.height, source.width, 10])
      const last = sharp(frameOf(source, 9), {
        raw: { width: source.width, height: source.height, channels: 4 },
      })
      const expected = await rawOf(sharp(await last.png().toBuffer()).rotate(90), { alpha: true })
      expect(meanDifference(frameOf(turned, 9), expected.data)).toBeLessThan(1)
      const rounded = await rawOf(await compress(input, 'radius=20&trim=5&format=webp&lossless=true'), {
        alpha: true,
      })
      expect(rounded.frames).toBe(10)
      for (let frame = 0; frame < 10; frame++) expect(pixelAt(rounded, 0, 0, frame)[3]).toBe(0)
    })
  }
})

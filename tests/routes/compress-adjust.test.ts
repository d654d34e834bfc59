import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { frameOf, meanDifference, pixelAt, rawOf } from '../helpers/pixels.ts'

/*
 * Each adjustment moves a statistic that sharp measures on the decoded output (stats()) the way
 * it should, against the same request without it.
 */
const photo = await fixture('photo-exif-orientation-6.jpg')
const lossless = 'format=png&lossless=true'

const stats = (bytes: Uint8Array) => sharp(bytes).stats()
/** BT.601 luma of the channel means. */
const luma = async (bytes: Uint8Array) => {
  const [r, g, b] = (await stats(bytes)).channels.map((c) => c.mean)
  return 0.299 * r! + 0.587 * g! + 0.114 * b!
}
/** How far apart the colour channels are, on average: 0 for grey. */
const colourfulness = async (bytes: Uint8Array) => {
  const raw = await rawOf(bytes)
  let sum = 0
  for (let i = 0; i < raw.data.length; i += raw.channels)
    sum += Math.abs(raw.data[i]! - raw.data[i + 1]!) + Math.abs(raw.data[i + 1]! - raw.data[i + 2]!)
  return sum / (raw.data.length / raw.channels)
}

describe('POST /api/compress: adjustments', () => {
  const api = apiForSuite()
  const compress = async (query: string, input = photo) => (await compressOk(api(), input, query)).bytes
  let plain: Uint8Array
  test('the plain output to compare with', async () => {
    plain = await compress(lossless)
    expect((await decode(plain)).width).toBe(600)
  })

  test('brightness raises or lowers the mean', async () => {
    expect(await luma(await compress(`brightness=1.5&${lossless}`))).toBeGreaterThan((await luma(plain)) + 20)
    expect(await luma(await compress(`brightness=0.5&${lossless}`))).toBeLessThan((await luma(plain)) - 20)
  })

  test('saturation 0 makes the channels equal, 2 pulls them apart', async () => {
    expect(await colourfulness(await compress(`saturation=0&${lossless}`))).toBeLessThan(2)
    expect(await colourfulness(await compress(`saturation=2&${lossless}`))).toBeGreaterThan(
      (await colourfulness(plain)) * 1.3,
    )
  })

  test('hue turns the colours but keeps the lightness', async () => {
    const turned = await compress(`hue=180&${lossless}`)
    const before = (await stats(plain)).channels.map((c) => c.mean)
    const after = (await stats(turned)).channels.map((c) => c.mean)
    expect(Math.abs(after[0]! - before[0]!) + Math.abs(after[2]! - before[2]!)).toBeGreaterThan(15)
    expect(Math.abs((await luma(turned)) - (await luma(plain)))).toBeLessThan(12)
  })

  test('contrast widens or narrows the spread of values, around the same middle', async () => {
    const spread = async (bytes: Uint8Array) => (await stats(bytes)).channels[1]!.stdev
    expect(await spread(await compress(`contrast=50&${lossless}`))).toBeGreaterThan(
      (await spread(plain)) * 1.3,
    )
    expect(await spread(await compress(`contrast=-50&${lossless}`))).toBeLessThan((await spread(plain)) * 0.7)
    const flat = (await stats(await compress(`contrast=-100&${lossless}`))).channels[1]!
    expect([flat.min, flat.max]).toEqual([128, 128])
  })

  test('sharpen raises the sharpness measure and blur lowers it', async () => {
    const sharpness = async (bytes: Uint8Array) => (await stats(bytes)).sharpness
    expect(await sharpness(await compress(`sharpen=1&${lossless}`))).toBeGreaterThan(
      (await sharpness(plain)) * 1.2,
    )
    expect(await sharpness(await compress(`blur=2&${lossless}`))).toBeLessThan((await sharpness(plain)) * 0.6)
  })

  test('greyscale makes the channels equal, and a JPEG of one channel', async () => {
    expect(await colourfulness(await compress(`greyscale=true&${lossless}`))).toBe(0)
    expect((await decode(await compress('greyscale=true&format=jpeg'))).metadata.channels).toBe(1)
  })

  test('normalise stretches a dull image to black and white', async () => {
    const dull = await sharp(photo).autoOrient().linear(0.4, 80).png().toBuffer()
    const before = (await stats(dull)).channels[1]!
    const after = (await stats(await compress(`normalise=true&${lossless}`, dull))).channels[1]!
    expect(after.max - after.min).toBeGreaterThan(before.max - before.min + 80)
  })

  test('the order is the contract: pad comes before the adjustments, so greyscale greys the pad too', async () => {
    const padded = await rawOf(await compress(`pad=4,4,4,4&background=%23ff0000&greyscale=true&${lossless}`))
    const [r, g, b] = pixelAt(padded, 1, 1)
    expect(r).toBe(g!)
    expect(g).toBe(b!)
  })

  test('a transparent input turned to JPEG is adjusted before it is flattened: the background keeps its colour', async () => {
    const input = await fixture('webp-lossy-alpha.webp')
    const raw = await rawOf(
      await compress('brightness=0.3&background=%2300ff00&format=jpeg&quality=100', input),
    )
    const [r, g, b] = pixelAt(raw, 0, 0)
    expect(g!).toBeGreaterThan(240)
    expect(Math.max(r!, b!)).toBeLessThan(20)
  })

  test('an animation is blurred frame by frame: no frame bleeds into the next', async () => {
    const input = await fixture('gif-animated-10frames.gif')
    const source = await rawOf(sharp(input, { animated: true }), { alpha: true })
    const output = await rawOf(await compress('blur=3&format=webp&lossless=true', input), { alpha: true })
    expect(output.frames).toBe(10)
    for (const frame of [0, 5]) {
      const alone = sharp(frameOf(source, frame), {
        raw: { width: source.width, height: source.height, channels: 4 },
      })
      const expected = await rawOf(sharp(await alone.blur(3).png().toBuffer()), { alpha: true })
      expect(meanDifference(frameOf(output, frame), expected.data), `frame ${frame}`).toBeLessThan(1.5)
    }
  })
})

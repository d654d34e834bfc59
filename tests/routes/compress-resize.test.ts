import { describe, expect, test } from 'bun:test'
import sharp, { type SharpOptions } from 'sharp'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { pixelAt, rawOf } from '../helpers/pixels.ts'

/** A dark, slightly noisy field with one bright, saturated object near its right edge. */
async function objectOnTheRight(): Promise<Uint8Array> {
  const object = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="140" height="140"><circle cx="70" cy="70" r="60" fill="#ffcc00"/><circle cx="70" cy="70" r="25" fill="#e01010"/></svg>',
  )
  return sharp({
    create: {
      width: 900,
      height: 300,
      channels: 3,
      background: '#303840',
      noise: { type: 'gaussian', mean: 60, sigma: 6 },
    },
  } as SharpOptions)
    .composite([{ input: object, left: 720, top: 80 }])
    .png()
    .toBuffer()
}

/** Mean of the red channel: the object is the only red thing in the picture. */
const meanRed = async (bytes: Uint8Array) => (await sharp(bytes).stats()).channels[0]!.mean

describe('POST /api/compress: position and dpr', () => {
  const api = apiForSuite()
  const compress = (input: Uint8Array, query: string) => compressOk(api(), input, query)

  test('position=attention keeps the salient object that a centred crop cuts off', async () => {
    const input = await objectOnTheRight()
    const box = 'width=300&height=300&fit=cover&format=png'
    const smart = await compress(input, `${box}&position=attention`)
    const centred = await compress(input, box)
    expect(smart.response.headers.get('x-ignored-options')).toBeNull()
    expect(await meanRed(smart.bytes)).toBeGreaterThan((await meanRed(centred.bytes)) + 20)
    // The object's centre, 790 px from the left of the input, lands inside the crop.
    const raw = await rawOf(smart.bytes)
    const row = 150 * raw.width * raw.channels
    const reds = [...Array(raw.width).keys()].filter((x) => raw.data[row + x * raw.channels]! > 200)
    expect(reds.length).toBeGreaterThan(20)
  })

  test('position=right keeps the same pixels as sharp’s own right-anchored cover crop', async () => {
    const input = await objectOnTheRight()
    const { bytes } = await compress(
      input,
      'width=300&height=300&fit=cover&position=right&format=png&lossless=true',
    )
    const expected = await rawOf(
      sharp(input).resize({ width: 300, height: 300, fit: 'cover', position: 'east' }),
    )
    expect((await rawOf(bytes)).data.equals(expected.data)).toBe(true)
  })

  test('position=top-left puts a contained image in the top-left corner of its letterbox', async () => {
    const input = await objectOnTheRight()
    const { bytes } = await compress(
      input,
      'width=300&height=300&fit=contain&position=top-left&background=%2300ff00&format=png&lossless=true',
    )
    const raw = await rawOf(bytes)
    // 900x300 into 300x300: 300x100 of image at the top, green below it.
    expect(pixelAt(raw, 10, 299).slice(0, 3)).toEqual([0, 255, 0])
    expect(pixelAt(raw, 10, 5).slice(0, 3)).not.toEqual([0, 255, 0])
  })

  test.each([
    ['width=300&position=attention', 'position'],
    ['width=300&height=300&fit=inside&position=left', 'position'],
    ['width=300&height=300&fit=contain&position=attention', 'position'],
    ['dpr=2', 'dpr'],
  ])('%s lists %s in X-Ignored-Options', async (query, ignored) => {
    const { response } = await compress(await objectOnTheRight(), query)
    expect(response.headers.get('x-ignored-options')?.split(',')).toContain(ignored)
  })

  test('on an animation attention keeps the centre and says so', async () => {
    const { response, bytes } = await compress(
      await fixture('gif-animated-10frames.gif'),
      'width=100&height=100&fit=cover&position=attention',
    )
    expect(response.headers.get('x-ignored-options')).toBe('position')
    expect((await decode(bytes)).pages).toBe(10)
  })

  test('dpr multiplies width and height, for srcset', async () => {
    const input = await objectOnTheRight()
    const one = await decode((await compress(input, 'width=200&height=100&fit=fill')).bytes)
    const two = await decode((await compress(input, 'width=200&height=100&fit=fill&dpr=2')).bytes)
    const odd = await decode((await compress(input, 'width=200&dpr=1.5')).bytes)
    expect([one.width, one.height, two.width, two.height, odd.width, odd.height]).toEqual([
      200, 100, 400, 200, 300, 100,
    ])
  })

  test('dpr never enlarges past the input unless withoutEnlargement=false', async () => {
    const input = await objectOnTheRight()
    expect((await decode((await compress(input, 'width=600&dpr=2')).bytes)).width).toBe(900)
    expect(
      (await decode((await compress(input, 'width=600&dpr=2&withoutEnlargement=false')).bytes)).width,
    ).toBe(1200)
  })
})

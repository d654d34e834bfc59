import sharp, { type SharpOptions } from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnApi, type Api } from '../helpers/api.ts'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { fixture } from '../helpers/paths.ts'
import { pixelAt, rawOf } from '../helpers/pixels.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer()

const grey = await solid(400, 300, '#808080')
const red = await solid(40, 20, '#ff0000')

/** The image as `file`, the watermark as `overlay`, options as fields. */
function withOverlay(
  image: Uint8Array,
  mark: Uint8Array | string,
  fields: Record<string, string>,
): RequestInit {
  const form = multipart(image, 'photo.png', fields)
  form.append(
    'overlay',
    typeof mark === 'string' ? mark : new File([mark as Uint8Array<ArrayBuffer>], 'logo.png'),
  )
  return post(form)
}

const near = (actual: number[], expected: number[], tolerance = 2) =>
  actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance)

describe('POST /api/compress: a watermark in the field overlay', () => {
  const api = apiForSuite()
  const request = (image: Uint8Array, mark: Uint8Array | string, fields: Record<string, string> = {}) =>
    api().fetch('/api/compress', withOverlay(image, mark, fields))
  const send = async (image: Uint8Array, mark: Uint8Array | string, fields: Record<string, string>) => {
    const response = await request(image, mark, fields)
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
  }
  const lossless = { format: 'png', lossless: 'true' }

  test('lands at its position, with its margin, at its opacity (applied to its alpha)', async () => {
    const { response, bytes } = await send(grey, red, {
      ...lossless,
      overlayPosition: 'top-left',
      overlayOpacity: '0.5',
      overlayMargin: '10',
    })
    expect(response.status).toBe(200)
    const raw = await rawOf(bytes)
    // Half red over grey: 0.5 x 255 + 0.5 x 128, 0.5 x 128, 0.5 x 128.
    expect(near(pixelAt(raw, 15, 15).slice(0, 3), [192, 64, 64])).toBe(true)
    expect(pixelAt(raw, 5, 5).slice(0, 3)).toEqual([128, 128, 128])
    expect(pixelAt(raw, 10 + 40, 15).slice(0, 3)).toEqual([128, 128, 128])
    expect(pixelAt(raw, 390, 290).slice(0, 3)).toEqual([128, 128, 128])
  })

  // Every band layout a logo comes in: sharp refuses a four-value linear on fewer bands, and
  // every opaque watermark (JPEG, RGB or grey PNG) was once 422 CORRUPT_IMAGE.
  const opaque = (background: string) => sharp({ create: { width: 40, height: 20, channels: 3, background } })
  const layouts: readonly (readonly [string, () => Promise<Buffer>])[] = [
    ['grey PNG', () => opaque('#000000').toColourspace('b-w').png().toBuffer()],
    [
      'grey PNG with alpha',
      () =>
        sharp(Buffer.alloc(40 * 20 * 2, Buffer.from([0, 255])), {
          raw: { width: 40, height: 20, channels: 2 },
        })
          .png()
          .toBuffer(),
    ],
    ['RGB PNG', () => opaque('#ff0000').png().toBuffer()],
    ['RGBA PNG', () => Promise.resolve(red)],
    ['palette PNG', () => opaque('#ff0000').png({ palette: true }).toBuffer()],
    ['JPEG', () => opaque('#ff0000').jpeg({ quality: 100 }).toBuffer()],
    ['CMYK JPEG', () => opaque('#ff0000').toColourspace('cmyk').jpeg({ quality: 100 }).toBuffer()],
  ]
  for (const [layout, make] of layouts) {
    test(`a ${layout} watermark at half opacity, with and without a margin, lands at its opacity`, async () => {
      const mark = await make()
      // Half the logo's own colour (as sRGB, the way the server reads it) over the grey.
      const own = await sharp(mark).toColourspace('srgb').removeAlpha().raw().toBuffer()
      const expected = [...own.subarray(0, 3)].map((value) => Math.round(value / 2 + 64))
      for (const margin of ['0', '10']) {
        const { response, bytes } = await send(grey, mark, {
          ...lossless,
          overlayPosition: 'top-left',
          overlayOpacity: '0.5',
          overlayMargin: margin,
        })
        if (response.status !== 200)
          expect(`${layout}, margin ${margin}: ${new TextDecoder().decode(bytes)}`).toBe('')
        const raw = await rawOf(bytes)
        const inside = Number(margin) + 5
        const pixel = pixelAt(raw, inside, inside).slice(0, 3)
        expect({ layout, margin, near: near(pixel, expected) }).toEqual({ layout, margin, near: true })
        expect(pixelAt(raw, 300, 200).slice(0, 3)).toEqual([128, 128, 128])
      }
    })
  }

  test('a margin that leaves the watermark no room is 400, naming overlayMargin and its most for this image', async () => {
    // 400x300: margins of 150 on both sides leave nothing of the 300 px height.
    const { response, bytes } = await send(grey, red, { ...lossless, overlayMargin: '150' })
    const problem = JSON.parse(new TextDecoder().decode(bytes))
    expect([response.status, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
    expect(problem.errors).toEqual([
      { name: 'overlayMargin', reason: expect.stringContaining('at most 149') },
    ])
    expect((await send(grey, red, { ...lossless, overlayMargin: '149' })).response.status).toBe(200)
    // A margin far past the image, on a resized output, is refused from the plan alone.
    const far = await send(grey, red, { ...lossless, width: '200', overlayMargin: '10000' })
    expect(JSON.parse(new TextDecoder().decode(far.bytes)).errors[0].reason).toContain('200x150')
  })

  test('a margin the plan allowed but a trim left no room for is 400 as well, not a damaged image', async () => {
    // A white border that trim removes: 400x300 of grey inside 1000x1000 of white.
    const framed = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#ffffff' } })
      .composite([{ input: grey, left: 300, top: 350 }])
      .png()
      .toBuffer()
    const { response, bytes } = await send(framed, red, { ...lossless, trim: '10', overlayMargin: '200' })
    const problem = JSON.parse(new TextDecoder().decode(bytes))
    expect([response.status, problem.code, problem.errors[0].name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'overlayMargin',
    ])
  })

  test('by default sits at the bottom right, fully opaque', async () => {
    const raw = await rawOf((await send(grey, red, lossless)).bytes)
    expect(pixelAt(raw, 399, 299).slice(0, 3)).toEqual([255, 0, 0])
    expect(pixelAt(raw, 0, 0).slice(0, 3)).toEqual([128, 128, 128])
  })

  test('overlayWidth is a share of the output width', async () => {
    const raw = await rawOf(
      (await send(grey, red, { ...lossless, overlayWidth: '0.5', overlayPosition: 'left' })).bytes,
    )
    const row = [...Array(raw.width).keys()].filter((x) => pixelAt(raw, x, 150)[1] === 0)
    expect(row.length).toBe(200)
  })

  test('overlayTile repeats it over the whole image', async () => {
    const raw = await rawOf(
      (await send(grey, red, { ...lossless, overlayTile: 'true', overlayMargin: '5' })).bytes,
    )
    let reds = 0
    for (let y = 0; y < raw.height; y += 2)
      for (let x = 0; x < raw.width; x += 2) if (pixelAt(raw, x, y)[1] === 0) reds++
    // 40x20 tiles every 50x30: about 53% of the image.
    expect(reds / ((raw.width / 2) * (raw.height / 2))).toBeGreaterThan(0.4)
  })

  test('lands on every frame of an animation', async () => {
    const gif = await fixture('gif-animated-10frames.gif')
    const { response, bytes } = await send(gif, red, {
      overlayPosition: 'top-left',
      format: 'webp',
      lossless: 'true',
    })
    expect(response.status).toBe(200)
    const raw = await rawOf(bytes)
    expect(raw.frames).toBe(10)
    for (let frame = 0; frame < 10; frame++)
      expect(pixelAt(raw, 5, 5, frame).slice(0, 3), `frame ${frame}`).toEqual([255, 0, 0])
  })

  test('passes the same screen as the image: a hostile SVG watermark is 415, named as the overlay', async () => {
    const problem = await problemOf(await request(grey, await fixture('bad-svg-external-urls.svg')))
    expect([problem.httpStatus, problem.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
    expect(problem.detail).toStartWith('overlay: ')
  })

  test('a watermark that is not an image, empty, or a text field is refused', async () => {
    const text = await problemOf(await request(grey, await fixture('bad-text-file.png')))
    expect([text.httpStatus, text.detail.startsWith('overlay: ')]).toEqual([415, true])
    const empty = await problemOf(await request(grey, new Uint8Array(0)))
    expect([empty.httpStatus, empty.errors?.[0]?.name]).toEqual([400, 'overlay'])
    const field = await problemOf(await request(grey, 'a logo'))
    expect([field.httpStatus, field.errors?.[0]?.name]).toEqual([400, 'overlay'])
  })

  test('its options without a watermark are listed in X-Ignored-Options', async () => {
    const response = await api().fetch(
      '/api/compress',
      post(multipart(grey, 'photo.png', { overlayOpacity: '0.5', overlayTile: 'true', overlayWidth: '0.2' })),
    )
    expect(response.headers.get('x-ignored-options')?.split(',').sort()).toEqual([
      'overlayOpacity',
      'overlayTile',
      'overlayWidth',
    ])
  })

  test('an SVG watermark is drawn, sized by overlayWidth', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#0000ff"/></svg>',
    )
    const raw = await rawOf(
      (await send(grey, svg, { ...lossless, overlayWidth: '0.25', overlayPosition: 'centre' })).bytes,
    )
    // 100 px wide, centred: it covers 150-249 across.
    expect(pixelAt(raw, 200, 150).slice(0, 3)).toEqual([0, 0, 255])
    expect(pixelAt(raw, 152, 150).slice(0, 3)).toEqual([0, 0, 255])
    expect(pixelAt(raw, 140, 150).slice(0, 3)).toEqual([128, 128, 128])
  })
})

describe('the watermark counts in the upload limit', () => {
  const api = apiForSuite({ maxUploadBytes: 2000 })

  test('an image and a watermark together over the upload limit are 413', async () => {
    const small = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123' } })
      .png()
      .toBuffer()
    const noisy = await sharp({
      create: {
        width: 40,
        height: 40,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    } as SharpOptions)
      .png()
      .toBuffer()
    expect(small.length + noisy.length).toBeGreaterThan(2000)
    expect(noisy.length).toBeLessThan(2000 + 64 * 1024)
    const response = await api().fetch('/api/compress', withOverlay(small, noisy, {}))
    expect(response.status).toBe(413)
  })
})

describe('POST /api/compress: radius', () => {
  const api = apiForSuite()
  const compress = async (image: Uint8Array, query: string) => (await compressOk(api(), image, query)).bytes

  test('makes the corners transparent where the output keeps alpha, and leaves the rest', async () => {
    const raw = await rawOf(await compress(grey, 'radius=40&format=png&lossless=true'))
    for (const [x, y] of [
      [0, 0],
      [399, 0],
      [0, 299],
      [399, 299],
      [5, 5],
    ] as const)
      expect(pixelAt(raw, x, y)[3], `${x},${y}`).toBe(0)
    for (const [x, y] of [
      [40, 0],
      [0, 40],
      [200, 150],
      [399, 150],
      [30, 30],
    ] as const)
      expect(pixelAt(raw, x, y), `${x},${y}`).toEqual([128, 128, 128, 255])
  })

  test('paints them with the background where the output has no alpha', async () => {
    const raw = await rawOf(await compress(grey, 'radius=40&format=jpeg&quality=100&background=%2300ff00'))
    expect(near(pixelAt(raw, 1, 1), [0, 255, 0], 8)).toBe(true)
    expect(near(pixelAt(raw, 200, 150), [128, 128, 128], 4)).toBe(true)
  })

  test('rounds every frame of an animation alike', async () => {
    const raw = await rawOf(
      await compress(await fixture('webp-animated-10frames.webp'), 'radius=30&format=webp&lossless=true'),
      {
        alpha: true,
      },
    )
    expect(raw.frames).toBe(10)
    for (let frame = 0; frame < 10; frame++) {
      expect(pixelAt(raw, 1, 1, frame)[3], `frame ${frame}`).toBe(0)
      expect(pixelAt(raw, raw.width - 2, raw.height - 2, frame)[3], `frame ${frame}`).toBe(0)
    }
  })
})

describe('a watermark reaches the worker process that runs the job', () => {
  let api: Api
  beforeAll(async () => {
    api = await spawnApi({ workers: 1 })
  }, 30_000)
  afterAll(() => api.stop())

  test('it crosses to the worker beside the image and lands at its position', async () => {
    const response = await api.fetch(
      '/api/compress',
      withOverlay(grey, red, { overlayPosition: 'top-left', format: 'png', lossless: 'true' }),
    )
    if (response.status !== 200) expect(await response.text()).toBe('')
    const raw = await rawOf(new Uint8Array(await response.arrayBuffer()))
    expect(pixelAt(raw, 5, 5).slice(0, 3)).toEqual([255, 0, 0])
    expect(pixelAt(raw, 200, 150).slice(0, 3)).toEqual([128, 128, 128])
  }, 30_000)

  test('the parts may come in either order: the watermark before the image', async () => {
    const form = new FormData()
    form.append('overlay', new File([red as Uint8Array<ArrayBuffer>], 'logo.png'))
    form.append('file', new File([grey as Uint8Array<ArrayBuffer>], 'photo.png'))
    for (const [name, value] of Object.entries({
      overlayPosition: 'bottom-left',
      format: 'png',
      lossless: 'true',
    }))
      form.append(name, value)
    const response = await api.fetch('/api/compress', post(form))
    if (response.status !== 200) expect(await response.text()).toBe('')
    const raw = await rawOf(new Uint8Array(await response.arrayBuffer()))
    expect([raw.width, raw.height]).toEqual([400, 300])
    expect(pixelAt(raw, 5, 295).slice(0, 3)).toEqual([255, 0, 0])
  }, 30_000)
})

import { beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { frameOf, meanDifference, pixelAt, rawOf } from '../helpers/pixels.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

/*
 * crop, rotate, flip and flop, on the fixture set: each output decoded by sharp and compared
 * with what sharp itself makes of the input, pixel for pixel where the output is lossless.
 */
// 450x600 stored, EXIF orientation 6: 600x450 upright.
const photo = await fixture('photo-exif-orientation-6.jpg')

describe('POST /api/compress: crop, rotate, flip and flop', () => {
  const api = apiForSuite()
  const compress = (input: Uint8Array, query: string) => compressOk(api(), input, query)
  const lossless = 'format=png&lossless=true'
  const upright = () => sharp(photo).autoOrient()

  test('crop equals sharp’s own extract of the same region of the upright image, pixel for pixel', async () => {
    const { bytes } = await compress(photo, `crop=100,50,200,120&${lossless}`)
    const expected = await rawOf(upright().extract({ left: 100, top: 50, width: 200, height: 120 }))
    const actual = await rawOf(bytes)
    expect([actual.width, actual.height]).toEqual([200, 120])
    expect(actual.data.equals(expected.data)).toBe(true)
  })

  test('a crop region past the edge is 422 CROP_OUTSIDE_IMAGE with the image’s size in the detail', async () => {
    const response = await api().fetch('/api/compress?crop=500,400,200,100', rawBody(photo))
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([422, 'CROP_OUTSIDE_IMAGE'])
    expect(problem.detail).toContain('600x450')
    expect(problem.errors?.[0]?.name).toBe('crop')
  })

  test.each(['1,2,3', '0,0,0,10', '0,0,10,0', 'a,b,c,d', '-1,0,10,10'])(
    'crop=%s is 400 INVALID_PARAMETER naming the shape it expects',
    async (crop) => {
      const problem = await problemOf(await api().fetch(`/api/compress?crop=${crop}`, rawBody(photo)))
      expect([problem.httpStatus, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
      expect(problem.errors?.[0]?.reason).toContain('left,top,width,height')
    },
  )

  test('flip mirrors top to bottom and flop left to right: known pixels change places', async () => {
    const input = await rawOf(upright())
    const flipped = await rawOf((await compress(photo, `flip=true&${lossless}`)).bytes)
    const flopped = await rawOf((await compress(photo, `flop=true&${lossless}`)).bytes)
    for (const [x, y] of [
      [0, 0],
      [17, 301],
      [599, 449],
    ] as const) {
      expect(pixelAt(flipped, x, y)).toEqual(pixelAt(input, x, 449 - y))
      expect(pixelAt(flopped, x, y)).toEqual(pixelAt(input, 599 - x, y))
    }
  })

  test('rotate=90 turns clockwise and swaps the dimensions, exactly as sharp turns', async () => {
    const { bytes, response } = await compress(photo, `rotate=90&${lossless}`)
    expect([response.headers.get('x-image-width'), response.headers.get('x-image-height')]).toEqual([
      '450',
      '600',
    ])
    const expected = await rawOf(sharp(await upright().png().toBuffer()).rotate(90))
    expect((await rawOf(bytes)).data.equals(expected.data)).toBe(true)
  })

  test('rotate=-90 is rotate=270, and rotate=360 changes nothing', async () => {
    const minus = await compress(photo, `rotate=-90&${lossless}`)
    const plus = await compress(photo, `rotate=270&${lossless}`)
    expect(Buffer.from(minus.bytes).equals(Buffer.from(plus.bytes))).toBe(true)
    const whole = await rawOf((await compress(photo, `rotate=360&${lossless}`)).bytes)
    expect(whole.data.equals((await rawOf(upright())).data)).toBe(true)
  })

  test('another angle enlarges the canvas and fills the corners: transparent in PNG, the background in JPEG', async () => {
    const png = await rawOf((await compress(photo, 'rotate=30&format=png&lossless=true')).bytes)
    // 600x450 turned by 30 degrees needs about 745x690.
    expect(png.width).toBeGreaterThan(740)
    expect(png.height).toBeGreaterThan(685)
    expect(png.channels).toBe(4)
    expect(pixelAt(png, 0, 0)[3]).toBe(0)
    expect(pixelAt(png, Math.floor(png.width / 2), Math.floor(png.height / 2))[3]).toBe(255)
    const jpeg = await rawOf((await compress(photo, 'rotate=30&format=jpeg&background=%23ff0000')).bytes)
    const [r, g, b] = pixelAt(jpeg, 2, 2)
    expect(r!).toBeGreaterThan(230)
    expect(Math.max(g!, b!)).toBeLessThan(30)
  })

  test('the order is the contract: crop, then rotate, then resize', async () => {
    // Cropped to 300x450, turned to 450x300, scaled to 225x150. Another order gives 225x337.
    const { bytes } = await compress(photo, `crop=0,0,300,450&rotate=90&width=225&${lossless}`)
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height]).toEqual([225, 150])
    const expected = await rawOf(
      sharp(await upright().extract({ left: 0, top: 0, width: 300, height: 450 }).png().toBuffer())
        .rotate(90)
        .resize({ width: 225 }),
    )
    expect(meanDifference((await rawOf(bytes)).data, expected.data)).toBeLessThan(2)
  })

  test('an animation is turned and flipped frame by frame, its frames in their order', async () => {
    const input = await fixture('webp-animated-10frames.webp')
    const source = await rawOf(sharp(input, { animated: true }), { alpha: true })
    const { bytes } = await compress(input, 'rotate=90&flip=true&format=webp&lossless=true')
    const output = await rawOf(bytes, { alpha: true })
    expect([output.width, output.height, output.frames]).toEqual([source.height, source.width, 10])
    for (const frame of [0, 4, 9]) {
      const alone = sharp(frameOf(source, frame), {
        raw: { width: source.width, height: source.height, channels: 4 },
      })
      const expected = await rawOf(sharp(await alone.flip().png().toBuffer()).rotate(90), { alpha: true })
      expect(meanDifference(frameOf(output, frame), expected.data), `frame ${frame}`).toBeLessThan(1)
    }
  })
})

describe('POST /api/compress: trim', () => {
  const api = apiForSuite()
  const compress = (input: Uint8Array, query: string) => compressOk(api(), input, query)
  const border = { top: 13, bottom: 13, left: 13, right: 13, background: '#ff00ff' }
  const upright = () => sharp(photo).autoOrient()

  test('removes a border of one colour and nothing else', async () => {
    const framed = await upright().extend(border).png().toBuffer()
    const { bytes } = await compress(framed, 'trim=10&format=png&lossless=true')
    const trimmed = await rawOf(bytes)
    expect([trimmed.width, trimmed.height]).toEqual([600, 450])
    expect(meanDifference(trimmed.data, (await rawOf(upright())).data)).toBeLessThan(1)
  })

  test('comes after crop: a crop that keeps part of the border is trimmed again', async () => {
    const framed = await upright().extend(border).png().toBuffer()
    // The crop keeps 13 px of border on its top and left; the trim takes them off.
    const { bytes } = await compress(framed, 'crop=0,0,300,200&trim=10&format=png&lossless=true')
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height]).toEqual([287, 187])
  })

  test('on an animation removes the border all frames share, and keeps every frame', async () => {
    const input = await fixture('webp-animated-10frames.webp')
    const framed = await sharp(input, { animated: true })
      .extend({ ...border, background: '#00ff00' })
      .webp({ lossless: true })
      .toBuffer()
    const { bytes } = await compress(framed, 'trim=10&format=webp&lossless=true')
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height, decoded.pages]).toEqual([370, 285, 10])
  })
})

describe('POST /api/compress: pad', () => {
  const api = apiForSuite()
  const compress = (input: Uint8Array, query: string) => compressOk(api(), input, query)

  test('adds the exact pixels in the exact colour around the resized image', async () => {
    const { bytes } = await compress(
      photo,
      'width=300&pad=5,7,11,13&background=%23123456&format=png&lossless=true',
    )
    const padded = await rawOf(bytes)
    expect([padded.width, padded.height]).toEqual([13 + 300 + 7, 5 + 225 + 11])
    const colour = [0x12, 0x34, 0x56]
    for (const [x, y] of [
      [0, 0],
      [12, 100],
      [13, 4],
      [319, 240],
      [313, 229],
      [200, 230],
    ] as const)
      expect(pixelAt(padded, x, y).slice(0, 3), `${x},${y}`).toEqual(colour)
    const inside = await rawOf(sharp(photo).autoOrient().resize({ width: 300 }))
    expect(pixelAt(padded, 13, 5).slice(0, 3)).toEqual(pixelAt(inside, 0, 0).slice(0, 3))
    expect(pixelAt(padded, 312, 229).slice(0, 3)).toEqual(pixelAt(inside, 299, 224).slice(0, 3))
  })

  test('counts in the output limits: a pad past the output dimension is 422 IMAGE_TOO_LARGE', async () => {
    const problem = await problemOf(await api().fetch('/api/compress?pad=0,99999,0,0', rawBody(photo)))
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
  })

  test('pads every frame of an animation', async () => {
    const { bytes } = await compress(await fixture('gif-animated-10frames.gif'), 'pad=10,10,10,10')
    const decoded = await decode(bytes)
    expect([decoded.width, decoded.height, decoded.pages]).toEqual([390, 305, 10])
  })
})

describe('a turned canvas counts in the limits before decoding', () => {
  // 600x450 = 270,000 pixels; turned by 45 degrees it needs about 743x743 = 552,000.
  const api = apiForSuite({ maxOutputPixels: 300_000 })

  test('rotate=45 is refused with 422 IMAGE_TOO_LARGE even when the output is small', async () => {
    const problem = await problemOf(await api().fetch('/api/compress?rotate=45&width=100', rawBody(photo)))
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('canvas')
  })

  test('the same image and size without the turn is served', async () => {
    expect((await api().fetch('/api/compress?rotate=90&width=100', rawBody(photo))).status).toBe(200)
  })
})

describe('never larger, unless an operation changed the pixels', () => {
  const api = apiForSuite()
  let small: Uint8Array
  beforeAll(async () => {
    // A JPEG compressed harder than the default re-encode: returning it would be smaller.
    small = await sharp(photo).autoOrient().jpeg({ quality: 30 }).toBuffer()
  })

  test('without operations the input itself comes back', async () => {
    const response = await api().fetch('/api/compress', rawBody(small))
    expect(response.headers.get('x-result')).not.toBe('compressed')
  })

  test.each(['rotate=180', 'flip=true', 'flop=true', 'crop=0,0,600,450'])(
    '%s on it comes back changed, though larger than the input',
    async (query) => {
      const response = await api().fetch(`/api/compress?${query}`, rawBody(small))
      expect(response.status).toBe(200)
      expect(response.headers.get('x-result')).toBe('compressed')
    },
  )

  test('rotate=180 really is turned', async () => {
    const response = await api().fetch('/api/compress?rotate=180', rawBody(small))
    const turned = await rawOf(new Uint8Array(await response.arrayBuffer()))
    const input = await rawOf(small)
    const corner = (image: typeof input, x: number, y: number) => pixelAt(image, x, y)
    const distance = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0)
    expect(distance(corner(turned, 0, 0), corner(input, 599, 449))).toBeLessThan(30)
  })
})

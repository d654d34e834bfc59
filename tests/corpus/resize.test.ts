import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'
import {
  CONCURRENT_SUITE,
  READABLE_ROWS,
  compress,
  expectSize,
  expectedSize,
  fieldsOf,
  formatOfFile,
  inputFacts,
  type ResizeRequest,
} from './support.ts'

announceCorpusSkip('corpus resize')

const FITS = ['inside', 'outside', 'cover', 'fill', 'contain'] as const
/** One corpus file per readable format (the last listed), so every decoder meets the resizer. */
const ONE_PER_FORMAT = [...new Map(READABLE_ROWS.map((r) => [formatOfFile(r.file)!.id, r.file])).values()]
/** Landscape, portrait, square and EXIF-rotated, all larger than the 240x160 box. */
const SHRINK_INPUTS = [
  'photo-pier-4mp.jpg',
  'png-photo-16bit-rgb.png',
  'webp-lossy-alpha.webp',
  'photo-exif-orientation-6.jpg',
]
/** Inputs smaller than the 500x700 box. */
const SMALL_INPUTS = ['webp-lossy-alpha.webp', 'tiff-rgb-uncompressed.tiff', 'png-tiny-1x1-prophoto-icc.png']

async function resized(api: Api, file: string, request: ResizeRequest, format = 'jpeg') {
  const input = await inputFacts(file)
  const result = await compress(api, input.bytes, file, { format, ...fieldsOf(request) })
  expect(result.status).toBe(200)
  const decoded = await decode(result.bytes)
  expect({ width: result.int('x-image-width'), height: result.int('x-image-height') }).toEqual({
    width: decoded.width,
    height: decoded.height,
  })
  return { input, decoded }
}

describe.skipIf(!HAS_CORPUS)('corpus resize', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  for (const file of ONE_PER_FORMAT) {
    test.concurrent(
      `${file}: with only width or only height, the other side follows the aspect ratio`,
      async () => {
        for (const request of [{ width: 1 }, { width: 173 }, { height: 97 }]) {
          const { input, decoded } = await resized(api, file, request, 'original')
          expectSize(decoded, expectedSize(input, request))
        }
      },
    )
  }

  for (const file of SHRINK_INPUTS) {
    test.concurrent(`${file}: each fit into a 240x160 box gives the documented size`, async () => {
      for (const fit of FITS) {
        const { input, decoded } = await resized(api, file, { width: 240, height: 160, fit })
        const exact = expectedSize(input, { width: 240, height: 160, fit })
        expectSize(decoded, exact)
        if (fit === 'inside') expect(Math.max(decoded.width - 240, decoded.height - 160)).toBe(0)
        if (fit === 'outside') expect(Math.min(decoded.width - 240, decoded.height - 160)).toBe(0)
        if (fit !== 'inside' && fit !== 'outside') expect([decoded.width, decoded.height]).toEqual([240, 160])
      }
    })
  }

  for (const file of SMALL_INPUTS) {
    test.concurrent(
      `${file}: by default a larger width or box never enlarges it (inside, outside, cover, fill)`,
      async () => {
        for (const request of [
          { width: 1000 },
          ...FITS.slice(0, 4).map((fit) => ({ width: 500, height: 700, fit })),
        ]) {
          const { input, decoded } = await resized(api, file, request)
          expect({ width: decoded.width, height: decoded.height }).toEqual({
            width: input.width,
            height: input.height,
          })
        }
      },
    )

    // contain always honours the box; with enlargement off the image inside it keeps its size,
    // so the letterbox (background) fills the rest.
    test.concurrent(
      `${file}: by default fit=contain with a larger box letterboxes the unscaled image into the box`,
      async () => {
        const input = await inputFacts(file)
        // Lossless PNG so a 1-pixel image survives encoding exactly; transparency is flattened
        // by removeAlpha below only after checking an opaque input pixel.
        const fields = {
          width: '500',
          height: '700',
          fit: 'contain',
          background: '#ff00ff',
          format: 'png',
          lossless: 'true',
        }
        const result = await compress(api, input.bytes, file, fields)
        const decoded = await decode(result.bytes)
        expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 500, height: 700 })
        const { data, info } = await sharp(result.bytes)
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true })
        const at = (x: number, y: number) => [
          ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
        ]
        const magenta = (pixel: number[]) => pixel[0]! > 230 && pixel[1]! < 25 && pixel[2]! > 230
        expect(magenta(at(0, 0))).toBe(true)
        // The image keeps its own width in the middle: just outside it is background, just inside is not.
        const left = Math.floor((500 - input.width) / 2)
        expect(magenta(at(left - 2, 350))).toBe(true)
        // Inside a (large enough, opaque) image the pixels are its own, not background.
        if (!input.hasAlpha && input.width > 4) {
          expect(magenta(at(left + Math.floor(input.width / 2), 350))).toBe(false)
        }
      },
    )

    test.concurrent(`${file}: withoutEnlargement=false enlarges to the requested width or box`, async () => {
      for (const fit of FITS) {
        const request = { width: 500, height: 700, fit, withoutEnlargement: false }
        const { input, decoded } = await resized(api, file, request)
        expectSize(decoded, expectedSize(input, request))
      }
      const { decoded } = await resized(api, file, { width: 1000, withoutEnlargement: false })
      expect(decoded.width).toBe(1000)
    })
  }
})

describe.skipIf(!HAS_CORPUS)('corpus resize under a 1200-pixel output limit', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ maxOutputDimension: 1200 })
  })
  afterAll(async () => {
    await api.stop()
  })

  test('withoutEnlargement=false enlarges up to maxOutputDimension and refuses anything beyond it', async () => {
    const tiny = 'png-tiny-1x1-prophoto-icc.png'
    const atLimit = await resized(api, tiny, { width: 1200, withoutEnlargement: false })
    expect([atLimit.decoded.width, atLimit.decoded.height]).toEqual([1200, 1200])

    const input = await inputFacts(tiny)
    const overWidth = await api.fetch(
      '/api/compress',
      post(multipart(input.bytes, tiny, { width: '1201', withoutEnlargement: 'false' })),
    )
    expect(await problemOf(overWidth)).toMatchObject({ httpStatus: 400, code: 'INVALID_PARAMETER' })

    // 290x442 at width 1000 would be 1524 tall: the derived side is checked too.
    const portrait = await inputFacts('png-photo-16bit-rgb.png')
    const response = await api.fetch('/api/compress?width=1000&withoutEnlargement=false', {
      method: 'POST',
      body: portrait.bytes as Uint8Array<ArrayBuffer>,
    })
    expect(await problemOf(response)).toMatchObject({ httpStatus: 422, code: 'IMAGE_TOO_LARGE' })
  })
})

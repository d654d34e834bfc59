import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, BINARY, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { corpusFile, fixture, HAS_CORPUS } from '../helpers/paths.ts'
import { meanDifference, referenceDecode } from '../helpers/reference-decoders.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'

/**
 * HEIF and JPEG XL uploads, read by the WebAssembly decoders: in memory by default, and
 * against the executable alone in an empty directory under npm run test:binary.
 */
const ORIENTED_HEIC = 'heic-irot-exif-orientation-6.heic'
const ORIENTED_JXL = 'jxl-exif-orientation-6-generic-rgb.jxl'
const UPRIGHT_JPEG = 'photo-exif-orientation-6.jpg'

async function compress(api: Api, bytes: Uint8Array, name: string, fields: Record<string, string>) {
  const response = await api.fetch('/api/compress', post(multipart(bytes, name, fields)))
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

/** The problem+json code of an answer whose body compress() has read. */
const codeOf = (bytes: Uint8Array) => (JSON.parse(new TextDecoder().decode(bytes)) as { code: string }).code

const CORRUPT = { status: 422, code: 'CORRUPT_IMAGE' }

/** Colour comparisons need a lossless output: PNG's default is a lossy palette. */
const LOSSLESS_PNG = { format: 'png', lossless: 'true' }

/** The upright JPEG's pixels at the same size: what a correctly oriented decode resembles. */
async function uprightPixels(width: number, height: number) {
  return sharp(await fixture(UPRIGHT_JPEG))
    .autoOrient()
    .resize(width, height, { fit: 'fill' })
    .toBuffer()
}

async function expectServiceAlive(api: Api) {
  expect((await api.fetch('/api/health')).status).toBe(200)
}

describe('HEIF and JPEG XL input', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(async () => {
    await api.stop()
  })

  test('a HEIC whose irot and EXIF orientation agree comes out upright once, not turned twice', async () => {
    const { response, bytes } = await compress(api, await fixture(ORIENTED_HEIC), ORIENTED_HEIC, LOSSLESS_PNG)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-original-format')).toBe('heic')
    const out = await decode(bytes)
    // Stored 450x600 with a quarter turn: once is 600x450, twice would be 450x600 again.
    expect([out.width, out.height]).toEqual([600, 450])
    const upright = await uprightPixels(600, 450)
    const turnedTwice = await sharp(upright).rotate(180).toBuffer()
    const nearUpright = await meanDifference(bytes, upright)
    expect(nearUpright).toBeLessThan(10)
    expect(nearUpright * 3).toBeLessThan(await meanDifference(bytes, turnedTwice))
  })

  test('format=original on a HEIC without transparency gives a JPEG', async () => {
    const { response, bytes } = await compress(api, await fixture(ORIENTED_HEIC), ORIENTED_HEIC, {
      format: 'original',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-output-format')).toBe('jpeg')
    expect((await decode(bytes)).format).toBe('jpeg')
  })

  test('a JPEG XL with orientation 6 and an ICC profile comes out upright, its colours as djxl decodes them', async () => {
    const input = await fixture(ORIENTED_JXL)
    const { response, bytes } = await compress(api, input, ORIENTED_JXL, LOSSLESS_PNG)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-original-format')).toBe('jxl')
    const out = await decode(bytes)
    expect([out.width, out.height]).toEqual([600, 450])
    expect(await meanDifference(bytes, await uprightPixels(600, 450))).toBeLessThan(10)
    const reference = referenceDecode('djxl', input)
    if (!reference)
      return console.warn('[skipped] djxl comparison: djxl (Debian libjxl-tools) is not installed')
    expect(await meanDifference(bytes, reference)).toBeLessThan(2)
  })

  test('a truncated HEIC or JPEG XL gets 422 CORRUPT_IMAGE, and the service keeps working', async () => {
    for (const name of [ORIENTED_HEIC, ORIENTED_JXL]) {
      const whole = await fixture(name)
      for (const keep of [0.3, 0.7]) {
        const cut = whole.subarray(0, Math.floor(whole.length * keep))
        const { response, bytes } = await compress(api, cut, name, {})
        const label = `${name} cut to ${keep}`
        expect({ label, status: response.status, code: codeOf(bytes) }).toEqual({ label, ...CORRUPT })
      }
    }
    await expectServiceAlive(api)
  })

  test('fuzzed HEIC and JPEG XL files get 200 or 422, never a 500, and the service keeps working', async () => {
    for (const name of [ORIENTED_HEIC, ORIENTED_JXL]) {
      const whole = await fixture(name)
      // Deterministic damage: every 97th byte past the first 64 inverted, in three densities.
      for (const every of [97, 997, 9973]) {
        const fuzzed = whole.slice()
        for (let i = 64; i < fuzzed.length; i += every) fuzzed[i] = fuzzed[i]! ^ 0xff
        const { response, bytes } = await compress(api, fuzzed, name, { format: 'jpeg' })
        const label = `${name} with every ${every}th byte inverted`
        if (response.status !== 200)
          expect({ label, status: response.status, code: codeOf(bytes) }).toEqual({ label, ...CORRUPT })
      }
    }
    await expectServiceAlive(api)
  })
})

describe('HEIF and JPEG XL pixel limits', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ maxHeifPixels: 200_000, maxJxlPixels: 200_000 })
  })
  afterAll(async () => {
    await api.stop()
  })

  for (const [name, setting] of [
    [ORIENTED_HEIC, 'IMGAPI_MAX_HEIF_PIXELS'],
    [ORIENTED_JXL, 'IMGAPI_MAX_JXL_PIXELS'],
  ] as const) {
    test(`${name} (270000 pixels) is refused from its header by ${setting}=200000 with 422 IMAGE_TOO_LARGE`, async () => {
      const decoders = BINARY ? undefined : await import('../../src/image/decoders/index.ts')
      const before = decoders?.decodesStarted()
      const response = await api.fetch(
        '/api/compress',
        post(multipart(await fixture(name), name, { width: '10' })),
      )
      const problem = await problemOf(response)
      expect({ status: response.status, code: problem.code }).toEqual({
        status: 422,
        code: 'IMAGE_TOO_LARGE',
      })
      expect(problem.detail).toContain(setting)
      expect(problem.detail).toContain('600x450')
      // In memory the decoders' own count proves the refusal came before any decoding.
      if (decoders) expect(decoders.decodesStarted()).toBe(before!)
    })
  }
})

describe.skipIf(!HAS_CORPUS)('HEIF and JPEG XL corpus files', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ jobTimeoutMs: 120_000 })
  })
  afterAll(async () => {
    await api.stop()
  })

  for (const format of ['jpeg', 'webp', 'avif'] as const) {
    test(`the two-image HEIF with a thumbnail converts to ${format} at the primary image's 1280x854`, async () => {
      const name = 'heic-example-libheif.heic'
      const { response, bytes } = await compress(api, await corpusFile(name), name, { format })
      expect(response.status).toBe(200)
      const out = await decode(bytes)
      expect(out.format).toBe(format === 'avif' ? 'heif' : format)
      expect([out.width, out.height, out.pages]).toEqual([1280, 854, 1])
    })
  }

  test('the primary image of the HEIF decodes as heif-convert decodes it', async () => {
    const input = await corpusFile('heic-example-libheif.heic')
    const { response, bytes } = await compress(api, input, 'example.heic', LOSSLESS_PNG)
    expect(response.status).toBe(200)
    const reference = referenceDecode('heif-convert', input)
    if (!reference)
      return console.warn(
        '[skipped] heif-convert comparison: heif-convert (Debian libheif-examples) is not installed',
      )
    expect(await meanDifference(bytes, reference)).toBeLessThan(1.5)
  })

  test('the JPEG XL photo converts to JPEG at width=1024 with its ICC profile applied, as djxl decodes it', async () => {
    const name = 'jxl-lossy-photo-11mp.jxl'
    const input = await corpusFile(name)
    const { response, bytes } = await compress(api, input, name, { format: 'jpeg', width: '1024' })
    expect(response.status).toBe(200)
    const out = await decode(bytes)
    expect([out.format, out.width, out.height]).toEqual(['jpeg', 1024, 681])
    const reference = referenceDecode('djxl', input)
    if (!reference)
      return console.warn('[skipped] djxl comparison: djxl (Debian libjxl-tools) is not installed')
    expect(await meanDifference(bytes, reference)).toBeLessThan(6)
  }, 60_000)

  test('the damaged HEIC gets 422 CORRUPT_IMAGE', async () => {
    const name = 'bad-heic-clap-overflow.heic'
    const { response, bytes } = await compress(api, await corpusFile(name), name, {})
    expect({ status: response.status, code: codeOf(bytes) }).toEqual({
      status: 422,
      code: 'CORRUPT_IMAGE',
    })
    await expectServiceAlive(api)
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { AUTO_LEVELS, measureSimilarity } from '../../src/image/search/index.ts'
import { AUTO_QUALITIES } from '../../src/options/schema.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const PHOTO = 'photo-exif-orientation-6.jpg' // 450x600 tagged 6: 600x450 upright
const ALPHA = 'webp-lossy-alpha.webp'

const similarityOf = (response: Response) => {
  const header = response.headers.get('x-similarity') ?? ''
  const match = /^ssim=(0\.\d{4}|1\.0000)$/.exec(header)
  expect(match, header).not.toBeNull()
  return Number(match![1])
}

describe('maxBytes: a byte target for every output format', () => {
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    api = await startApi()
    photo = await fixture(PHOTO)
  })
  afterAll(() => api.stop())

  // Each reachable at the format's default floor (minQuality) on this photo, but GIF's: its
  // palette stays near 237 kB down to 31 colours, so it is allowed any quality.
  const TARGETS = { jpeg: 60_000, webp: 60_000, avif: 30_000, png: 250_000, gif: 60_000, tiff: 60_000 }
  const EXTRA: Record<string, string> = { gif: '&minQuality=1' }

  for (const [format, maxBytes] of Object.entries(TARGETS)) {
    test(`${format}: at most ${maxBytes} bytes, decodable, the right size, the quality used and the encodes tried reported`, async () => {
      const response = await api.fetch(
        `/api/compress?format=${format}&maxBytes=${maxBytes}${EXTRA[format] ?? ''}`,
        rawBody(photo),
      )
      expect(response.status).toBe(200)
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(bytes.length).toBeLessThanOrEqual(maxBytes)
      // A search, not a first guess: the answer uses the room it has.
      expect(bytes.length).toBeGreaterThan(maxBytes * 0.5)
      const decoded = await sharp(bytes).metadata()
      expect(decoded.format as string).toBe(format === 'avif' ? 'heif' : format)
      expect([decoded.width, decoded.height]).toEqual([600, 450])
      expect(
        Number(/encodes;desc="(\d+)"/.exec(response.headers.get('server-timing') ?? '')?.[1]),
      ).toBeGreaterThan(1)
      expect(similarityOf(response)).toBeGreaterThan(0.5)
    })
  }

  test('lands within 10% under the target on a photo, for JPEG, WebP and AVIF', async () => {
    for (const [format, maxBytes] of [
      ['jpeg', 60_000],
      ['webp', 55_000],
      ['avif', 28_000],
    ] as const) {
      const response = await api.fetch(`/api/compress?format=${format}&maxBytes=${maxBytes}`, rawBody(photo))
      const size = (await response.arrayBuffer()).byteLength
      expect({ format, size: size <= maxBytes && size >= maxBytes * 0.9 }).toEqual({ format, size: true })
    }
  })

  test('a target below what is possible is 422 TARGET_UNREACHABLE with the smallest size reached', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&maxBytes=500', rawBody(photo))
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([422, 'TARGET_UNREACHABLE'])
    expect(problem.smallestBytes).toBeGreaterThan(500)
    expect(problem.detail).toContain(`the smallest reached was ${problem.smallestBytes} bytes`)
  })

  test('keeps a floor by default: below JPEG quality 50 the answer is 422 TARGET_UNREACHABLE, advising allowResize', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress?format=jpeg&maxBytes=30000', rawBody(photo)),
    )
    expect([problem.httpStatus, problem.code]).toEqual([422, 'TARGET_UNREACHABLE'])
    expect(problem.detail).toContain('quality 50 or above (minQuality)')
    expect(problem.detail).toContain('allowResize=true')
  })

  test('minQuality lowers the floor for a caller who accepts blocks, and binds the search', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&maxBytes=30000&minQuality=20', rawBody(photo))
    expect(response.status).toBe(200)
    const quality = Number(response.headers.get('x-quality'))
    expect(quality).toBeGreaterThanOrEqual(20)
    expect(quality).toBeLessThan(50)
    expect((await response.arrayBuffer()).byteLength).toBeLessThanOrEqual(30_000)
    const refused = await problemOf(
      await api.fetch('/api/compress?format=jpeg&maxBytes=10000&minQuality=40', rawBody(photo)),
    )
    expect([refused.code, refused.detail.includes('quality 40 or above')]).toEqual([
      'TARGET_UNREACHABLE',
      true,
    ])
  })

  test('allowResize keeps the floor in every round, the last included', async () => {
    const response = await api.fetch(
      '/api/compress?format=jpeg&maxBytes=30000&allowResize=true',
      rawBody(photo),
    )
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('x-quality'))).toBeGreaterThanOrEqual(50)
    expect(response.headers.get('x-resized-to-fit')).toMatch(/^\d+x\d+$/)
  })

  test('minQuality without maxBytes does nothing and is listed as ignored', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&minQuality=30', rawBody(photo))
    expect(response.headers.get('x-ignored-options')).toBe('minQuality')
  })

  test('a level and a byte target mean the level within the budget: never a ruined image when the budget allows better', async () => {
    const level = await api.fetch('/api/compress?format=jpeg&quality=auto', rawBody(photo))
    const levelBytes = (await level.arrayBuffer()).byteLength
    const levelQuality = Number(level.headers.get('x-quality'))
    // A budget above the level's size: the level's own answer.
    const roomy = await api.fetch(
      `/api/compress?format=jpeg&quality=auto&maxBytes=${levelBytes * 2}`,
      rawBody(photo),
    )
    expect(Number(roomy.headers.get('x-quality'))).toBe(levelQuality)
    // A budget a little under it: the highest quality that fits, well above the floor.
    const tight = Math.round(levelBytes * 0.85)
    const under = await api.fetch(`/api/compress?format=jpeg&quality=auto&maxBytes=${tight}`, rawBody(photo))
    expect(under.status).toBe(200)
    const bytes = (await under.arrayBuffer()).byteLength
    expect(bytes).toBeLessThanOrEqual(tight)
    expect(bytes).toBeGreaterThan(tight * 0.8)
    expect(Number(under.headers.get('x-quality'))).toBeLessThan(levelQuality)
    expect(Number(under.headers.get('x-quality'))).toBeGreaterThanOrEqual(50)
  })

  test('allowResize scales the image down until it fits, and says so', async () => {
    const response = await api.fetch(
      '/api/compress?format=jpeg&maxBytes=4000&allowResize=true',
      rawBody(photo),
    )
    expect(response.status).toBe(200)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.length).toBeLessThanOrEqual(4000)
    const { width, height } = await sharp(bytes).metadata()
    expect(width!).toBeLessThan(600)
    expect(Math.abs(width! / height! - 600 / 450)).toBeLessThan(0.02)
    expect(response.headers.get('x-resized-to-fit')).toBe(`${width}x${height}`)
    // Scaled down rather than reduced to blocks: the quality stays at or above the floor.
    expect(Number(response.headers.get('x-quality'))).toBeGreaterThanOrEqual(50)
  })

  test('a quality given with maxBytes is the ceiling of the search', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&maxBytes=1000000&quality=60', rawBody(photo))
    expect(response.headers.get('x-quality')).toBe('60')
  })

  test('allowResize without maxBytes is listed as ignored', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&allowResize=true', rawBody(photo))
    expect(response.headers.get('x-ignored-options')).toBe('allowResize')
  })
})

describe('quality=auto: the lowest quality that still looks the same', () => {
  let api: Api
  let photo: Uint8Array
  let upright: Uint8Array
  beforeAll(async () => {
    api = await startApi()
    photo = await fixture(PHOTO)
    upright = new Uint8Array(await sharp(photo).autoOrient().png().toBuffer())
  })
  afterAll(() => api.stop())

  for (const level of AUTO_QUALITIES) {
    test(`${level}: the similarity reported, and measured again on the answer, reaches ${AUTO_LEVELS[level]}`, async () => {
      for (const format of ['jpeg', 'webp'] as const) {
        const response = await api.fetch(`/api/compress?format=${format}&quality=${level}`, rawBody(photo))
        expect(response.status).toBe(200)
        const bytes = new Uint8Array(await response.arrayBuffer())
        const reported = similarityOf(response)
        expect(reported, `${format} ${level}`).toBeGreaterThanOrEqual(AUTO_LEVELS[level])
        const measured = await measureSimilarity(upright, bytes)
        expect(Math.abs(measured.score - reported)).toBeLessThan(0.002)
        expect(Number(response.headers.get('x-quality'))).toBeGreaterThan(0)
      }
    })
  }

  test('PNG whose palette cannot look the same at auto is written lossless, scoring 1, with no quality', async () => {
    const response = await api.fetch('/api/compress?format=png&quality=auto', rawBody(photo))
    expect(response.status).toBe(200)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(similarityOf(response)).toBe(1)
    expect(response.headers.get('x-quality')).toBeNull()
    // Its first palette is full and fails: no higher quality changes it, so it goes lossless.
    expect(response.headers.get('server-timing')).toContain('encodes;desc="2"')
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
    const original = await sharp(upright).removeAlpha().raw().toBuffer()
    expect([info.format, info.width, info.height]).toEqual(['raw', 600, 450])
    expect((await sharp(bytes).metadata()).isPalette).toBe(false)
    expect(Buffer.compare(data, original)).toBe(0)
  })

  // The probes of a JPEG search are baseline and unoptimised, only ever scored (auto-quality.ts).
  test('a JPEG answer is encoded as asked: the very file a fixed request at the chosen quality gives', async () => {
    for (const progressive of [true, false]) {
      const query = `format=jpeg&progressive=${progressive}`
      const auto = await api.fetch(`/api/compress?${query}&quality=auto`, rawBody(upright))
      const quality = Number(auto.headers.get('x-quality'))
      const bytes = new Uint8Array(await auto.arrayBuffer())
      expect((await sharp(bytes).metadata()).isProgressive).toBe(progressive)
      const fixed = await api.fetch(`/api/compress?${query}&quality=${quality}`, rawBody(upright))
      expect(Buffer.from(bytes).equals(Buffer.from(await fixed.arrayBuffer()))).toBe(true)
    }
  })

  // A palette search's probes are stored, not deflated (auto-quality.ts, png-deflate.ts).
  test('a PNG answer is deflated as asked: the pixels and, within its IDAT chunking, the size of a fixed request', async () => {
    const graphic = new Uint8Array(
      await sharp(await fixture(ALPHA))
        .png()
        .toBuffer(),
    )
    const auto = await api.fetch('/api/compress?format=png&quality=auto-medium', rawBody(graphic))
    const quality = Number(auto.headers.get('x-quality'))
    expect(quality).toBeGreaterThan(0)
    const bytes = Buffer.from(await auto.arrayBuffer())
    const fixed = await api.fetch(`/api/compress?format=png&quality=${quality}`, rawBody(graphic))
    const expected = Buffer.from(await fixed.arrayBuffer())
    const pixels = (png: Uint8Array) => sharp(png).raw().toBuffer()
    expect((await pixels(bytes)).equals(await pixels(expected))).toBe(true)
    expect(Math.abs(bytes.length - expected.length) / expected.length).toBeLessThan(0.01)
  })

  test('coarser levels give smaller files', async () => {
    const sizes = []
    for (const level of AUTO_QUALITIES) {
      const response = await api.fetch(`/api/compress?format=webp&quality=${level}`, rawBody(photo))
      sizes.push((await response.arrayBuffer()).byteLength)
    }
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes)
    expect(sizes.at(-1)!).toBeLessThan(sizes[0]!)
  })

  test('the JSON envelope carries the quality chosen, the similarity and the encodes', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&quality=auto-medium', {
      ...rawBody(photo),
      headers: { accept: 'application/json' },
    })
    const body = (await response.json()) as Record<string, any>
    expect(body.similarity.metric).toBe('ssim')
    expect(body.similarity.score).toBeGreaterThanOrEqual(AUTO_LEVELS['auto-medium'])
    expect(body.quality).toBe(Number(response.headers.get('x-quality')))
    // Encodes of the whole image: one when its sample's answer is right the first time.
    const timing = Number(/encodes;desc="(\d+)"/.exec(response.headers.get('server-timing') ?? '')?.[1])
    expect(Number.isInteger(body.encodes) && body.encodes >= 1).toBe(true)
    expect(body.encodes).toBe(timing)
  })

  test('a word quality must be one of the levels, and the error says what is accepted', async () => {
    const problem = await problemOf(await api.fetch('/api/compress?quality=best', rawBody(photo)))
    expect(problem.errors?.[0]?.reason).toBe(
      'expected an integer from 1 to 100, or one of auto, auto-high, auto-medium, auto-low, received "best"',
    )
  })
})

describe('format=auto: the smallest format the client can show', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  const auto = async (file: string, query: string, accept?: string) => {
    const response = await api.fetch(`/api/compress?format=auto&${query}`, {
      ...rawBody(await fixture(file)),
      headers: accept ? { accept } : {},
    })
    expect(response.status).toBe(200)
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { response, bytes, format: (await sharp(bytes).metadata()).format }
  }

  test('never sends AVIF to a client whose Accept lacks it, and varies on Accept', async () => {
    const { response, format } = await auto(PHOTO, 'quality=auto-medium', 'image/webp,image/png,*/*;q=0.8')
    expect(['webp', 'jpeg']).toContain(format!)
    expect(response.headers.get('vary')).toContain('Accept')
    expect(response.headers.get('x-output-format')).toBe(format === 'jpeg' ? 'jpeg' : 'webp')
  })

  test('with only JPEG acceptable, JPEG; with transparency, PNG rather than JPEG', async () => {
    expect((await auto(PHOTO, 'quality=auto-medium', 'image/jpeg')).format).toBe('jpeg')
    expect((await auto(ALPHA, 'quality=auto-medium', 'image/jpeg')).format).toBe('png')
  })

  test("formats= overrides Accept, for backends whose own Accept is not their users'", async () => {
    const { format } = await auto(PHOTO, 'quality=auto-medium&formats=jpeg', 'image/avif,image/webp')
    expect(format).toBe('jpeg')
  })

  test('picks a candidate at the level and reports its similarity', async () => {
    const { response, format } = await auto(PHOTO, 'quality=auto-medium&width=300', '*/*')
    expect(['heif', 'webp', 'jpeg']).toContain(format!)
    expect(similarityOf(response)).toBeGreaterThanOrEqual(AUTO_LEVELS['auto-medium'])
  })

  test('honours q=0: a client that refuses AVIF and WebP gets neither', async () => {
    const { format } = await auto(PHOTO, 'quality=auto-medium', 'image/avif;q=0, image/webp;q=0')
    expect(format).toBe('jpeg')
    const wildcard = await auto(PHOTO, 'quality=auto-medium', 'image/*, image/avif;q=0')
    expect(wildcard.format).not.toBe('heif')
  })

  test('uses at most 16 encodes, counting the re-encode that keeps metadata', async () => {
    for (const query of ['quality=auto', 'quality=auto&metadata=keep', 'quality=auto&maxBytes=40000']) {
      const { response } = await auto(PHOTO, query, '*/*')
      const encodes = Number(/encodes;desc="(\d+)"/.exec(response.headers.get('server-timing') ?? '')![1])
      expect({ query, within: encodes <= 16 }).toEqual({ query, within: true })
    }
  })

  test("never larger than the input when the input's format is a candidate: a heavily compressed JPEG comes back as itself", async () => {
    const input = new Uint8Array(
      await sharp(await fixture(PHOTO))
        .jpeg({ quality: 30 })
        .toBuffer(),
    )
    const response = await api.fetch('/api/compress?format=auto&quality=auto', {
      ...rawBody(input),
      headers: { accept: '*/*' },
    })
    expect(response.status).toBe(200)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.length).toBeLessThanOrEqual(input.length)
  })

  test('no larger than the same request naming the winning format', async () => {
    const photo = await fixture(PHOTO)
    const { response, bytes } = await auto(PHOTO, 'quality=auto-high', '*/*')
    const winner = response.headers.get('x-output-format')!
    const named = await api.fetch(`/api/compress?format=${winner}&quality=auto-high`, rawBody(photo))
    const namedBytes = (await named.arrayBuffer()).byteLength
    // The searches differ in where they start, so allow a quality step's worth (about 3%).
    expect(bytes.length).toBeLessThanOrEqual(namedBytes * 1.03)
  })

  test("when no candidate reaches the level and none is smaller than the input, and the input's format is not a candidate: 422 TARGET_UNREACHABLE", async () => {
    const input = new Uint8Array(
      await sharp(await fixture(PHOTO))
        .jpeg({ quality: 20 })
        .toBuffer(),
    )
    const response = await api.fetch('/api/compress?format=auto&quality=auto&formats=gif', rawBody(input))
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([422, 'TARGET_UNREACHABLE'])
    expect(problem.smallestBytes).toBeGreaterThan(input.length)
  })

  test('a numeric quality is refused: quality numbers mean different things per format', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress?format=auto&quality=80', rawBody(await fixture(PHOTO))),
    )
    expect([problem.httpStatus, problem.code, problem.errors?.[0]?.name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'quality',
    ])
  })

  test('an animation keeps its motion: WebP or GIF', async () => {
    const { bytes, format } = await auto('gif-animated-10frames.gif', 'quality=auto-medium', '*/*')
    expect(['webp', 'gif']).toContain(format!)
    expect((await sharp(bytes, { animated: true }).metadata()).pages).toBe(10)
  })

  test('formats without format=auto is listed as ignored', async () => {
    const response = await api.fetch('/api/compress?format=jpeg&formats=webp', rawBody(await fixture(PHOTO)))
    expect(response.headers.get('x-ignored-options')).toBe('formats')
  })
})

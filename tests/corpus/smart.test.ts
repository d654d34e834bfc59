import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AUTO_LEVELS } from '../../src/image/search/index.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import { CONCURRENT_SUITE, READABLE_ROWS, WRITABLE, compress, inputFacts, sharpName } from './support.ts'

announceCorpusSkip('corpus smart compression')

/** Stills: an animation's target would be about its frames, another suite's concern. */
const STILLS = READABLE_ROWS.filter((row) => !/animated|apng/.test(row.file)).map((row) => row.file)
const PHOTOS = READABLE_ROWS.filter((row) => row.file.startsWith('photo-')).map((row) => row.file)
/**
 * Every image is first scaled to this width, so the whole suite stays within minutes on 2 cores.
 * One image at a time: each test times its own work, not a queue shared with the others.
 */
const WIDTH = 480

describe.skipIf(!HAS_CORPUS)('corpus smart compression', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(() => api.stop())

  for (const file of STILLS) {
    test(`${file}: maxBytes is honoured in every writable format, or refused with the smallest size reached`, async () => {
      const input = await inputFacts(file)
      for (const format of WRITABLE) {
        // Half the size at the default quality: reachable by most formats, not by all.
        const plain = await compress(api, input.bytes, file, { format, width: String(WIDTH) })
        expect(plain.status, `${file} ${format}`).toBe(200)
        const maxBytes = Math.max(2000, Math.floor(plain.bytes.length / 2))
        const result = await compress(api, input.bytes, file, {
          format,
          width: String(WIDTH),
          maxBytes: String(maxBytes),
        })
        if (result.status === 422) {
          const problem = JSON.parse(new TextDecoder().decode(result.bytes))
          expect(problem.code, `${file} ${format}`).toBe('TARGET_UNREACHABLE')
          expect(problem.smallestBytes, `${file} ${format}`).toBeGreaterThan(maxBytes)
          continue
        }
        expect(result.status, `${file} ${format}`).toBe(200)
        expect(result.bytes.length, `${file} ${format}`).toBeLessThanOrEqual(maxBytes)
        const decoded = await decode(result.bytes)
        expect(decoded.format, `${file} ${format}`).toBe(sharpName(format))
        const plainDecoded = await decode(plain.bytes)
        expect([decoded.width, decoded.height], `${file} ${format}`).toEqual([
          plainDecoded.width,
          plainDecoded.height,
        ])
      }
    }, 300_000)
  }

  for (const file of PHOTOS) {
    test(`${file}: maxBytes lands within 10% under the target for JPEG, WebP and AVIF`, async () => {
      const input = await inputFacts(file)
      for (const format of ['jpeg', 'webp', 'avif']) {
        const plain = await compress(api, input.bytes, file, { format, width: String(WIDTH) })
        // Within reach above the floor (minQuality) for every format.
        const maxBytes = Math.floor(plain.bytes.length * 0.8)
        const result = await compress(api, input.bytes, file, {
          format,
          width: String(WIDTH),
          maxBytes: String(maxBytes),
        })
        expect(result.status, `${file} ${format}`).toBe(200)
        expect(result.bytes.length / maxBytes, `${file} ${format}`).toBeLessThanOrEqual(1)
        expect(result.bytes.length / maxBytes, `${file} ${format}`).toBeGreaterThanOrEqual(0.9)
      }
    }, 300_000)

    test(`${file}: quality=auto-medium reports a similarity at or above its level`, async () => {
      const input = await inputFacts(file)
      for (const format of ['jpeg', 'webp', 'avif']) {
        const result = await compress(api, input.bytes, file, {
          format,
          width: String(WIDTH),
          quality: 'auto-medium',
        })
        expect(result.status, `${file} ${format}`).toBe(200)
        const score = Number(/^ssim=([\d.]+)$/.exec(result.headers.get('x-similarity') ?? '')?.[1])
        expect(score, `${file} ${format}`).toBeGreaterThanOrEqual(AUTO_LEVELS['auto-medium'])
      }
    }, 300_000)
  }

  // A 4 MP JPEG once came back 26% larger as a 624 kB AVIF at quality 87 (format=auto spent its
  // 16 encodes choosing, and stopped at the preview's quality), while format=avif gave 254 kB.
  test('photo-pier-4mp.jpg: format=auto is never larger than the input, nor than naming the winning format, within 16 encodes', async () => {
    const file = 'photo-pier-4mp.jpg'
    const input = await inputFacts(file)
    const auto = await compress(api, input.bytes, file, { format: 'auto', quality: 'auto-high' })
    expect(auto.status).toBe(200)
    expect(auto.bytes.length).toBeLessThanOrEqual(input.bytes.length)
    const encodes = Number(/encodes;desc="(\d+)"/.exec(auto.headers.get('server-timing') ?? '')?.[1])
    expect(encodes).toBeLessThanOrEqual(16)
    const winner = auto.headers.get('x-output-format')!
    const named = await compress(api, input.bytes, file, { format: winner, quality: 'auto-high' })
    // The two searches start from different places: a quality step's worth (3%) apart at most.
    expect(auto.bytes.length).toBeLessThanOrEqual(named.bytes.length * 1.03)
  }, 300_000)
})

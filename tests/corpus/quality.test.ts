import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import { CONCURRENT_SUITE, WRITABLE, compress, inputFacts, sharpName } from './support.ts'

announceCorpusSkip('corpus quality')

/** Photos decoded from three different formats. */
const PHOTOS = ['photo-forest-path-4mp.jpg', 'png-photo-butterfly-6mp.png', 'webp-lossy-photo-tree.webp']

/**
 * Outputs whose quality is a lossy encoder setting. PNG's quality drives palette quantisation
 * and TIFF's only applies to its JPEG compression, so bytes need not grow with them.
 */
const LOSSY = ['jpeg', 'webp', 'avif']
const QUALITIES = [30, 60, 90]

describe.skipIf(!HAS_CORPUS)('corpus quality', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  test('every lossy output is writable by this build', () => {
    for (const output of LOSSY) expect(WRITABLE).toContain(output)
  })

  for (const file of PHOTOS) {
    for (const output of LOSSY) {
      test.concurrent(`${file} as ${output}: size grows with quality 30 < 60 < 90`, async () => {
        const input = await inputFacts(file)
        const sizes: number[] = []
        for (const quality of QUALITIES) {
          // Width 320 keeps AVIF encoding fast; the ordering holds at any size.
          const result = await compress(api, input.bytes, file, {
            format: output,
            quality: String(quality),
            width: '320',
          })
          expect(result.status).toBe(200)
          expect(result.header('x-result')).toBe('compressed')
          expect(result.int('x-quality')).toBe(quality)
          expect((await decode(result.bytes)).format).toBe(sharpName(output))
          sizes.push(result.bytes.length)
        }
        expect(sizes[0]!).toBeLessThan(sizes[1]!)
        expect(sizes[1]!).toBeLessThan(sizes[2]!)
      })
    }
  }
})

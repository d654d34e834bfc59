import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import { CONCURRENT_SUITE, WRITABLE, compress, inputFacts } from './support.ts'

announceCorpusSkip('corpus EXIF orientation')

/** Per the manifest: both are stored 450x600 and display 600x450 after this clockwise turn. */
const ROTATED = { 'photo-exif-orientation-6.jpg': 90, 'photo-exif-orientation-8.jpg': 270 } as const

/** Small sRGB thumbnails of two images, compared by mean absolute difference per sample. */
async function difference(a: Uint8Array | Buffer, b: Uint8Array | Buffer): Promise<number> {
  const thumb = (bytes: Uint8Array | Buffer) =>
    sharp(bytes).resize(60, 45, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer()
  const [x, y] = await Promise.all([thumb(a), thumb(b)])
  let sum = 0
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!)
  return sum / x.length
}

/** The upright picture, built here from the stored pixels without any EXIF handling. */
async function upright(bytes: Uint8Array, clockwise: number): Promise<Buffer> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
  const raw = { width: info.width, height: info.height, channels: info.channels }
  return sharp(data, { raw }).rotate(clockwise).png().toBuffer()
}

describe.skipIf(!HAS_CORPUS)('corpus EXIF orientation', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  for (const [file, clockwise] of Object.entries(ROTATED)) {
    test(`${file} is stored 450x600 with EXIF orientation ${file.at(-5)}`, async () => {
      const input = await inputFacts(file)
      expect([input.decoded.width, input.decoded.height, input.orientation]).toEqual([
        450,
        600,
        Number(file.at(-5)),
      ])
    })

    for (const output of WRITABLE) {
      test.concurrent(
        `${file} comes out landscape as ${output} at width 200, orientation tag absent or 1`,
        async () => {
          const input = await inputFacts(file)
          for (const metadata of ['strip', 'keep']) {
            // Resized because AVIF, GIF and PNG encoding of the full 600x450 takes seconds each.
            const result = await compress(api, input.bytes, file, { format: output, metadata, width: '200' })
            expect(result.status).toBe(200)
            const decoded = await decode(result.bytes)
            expect([decoded.width, decoded.height]).toEqual([200, 150])
            expect([result.int('x-image-width'), result.int('x-image-height')]).toEqual([200, 150])
            // TIFF always writes its own baseline Orientation tag, as 1; that is not EXIF.
            expect(decoded.orientation ?? 1).toBe(1)
            if (metadata === 'strip') expect(decoded.hasExif).toBe(false)
          }
        },
      )
    }

    test(`${file} is turned ${clockwise} degrees clockwise to the upright 600x450 picture`, async () => {
      const input = await inputFacts(file)
      const reference = await upright(input.bytes, clockwise)
      const upsideDown = await upright(input.bytes, (clockwise + 180) % 360)
      for (const output of ['jpeg', 'webp']) {
        const result = await compress(api, input.bytes, file, { format: output })
        expect((await decode(result.bytes)).metadata).toMatchObject({ width: 600, height: 450 })
        const same = await difference(result.bytes, reference)
        // The wrong turn must look clearly different, or the comparison proves nothing.
        expect(await difference(result.bytes, upsideDown)).toBeGreaterThan(30)
        expect(same).toBeLessThan(10)
      }
    })
  }
})

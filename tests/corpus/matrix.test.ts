import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { MAGIC, decode, decodePixels } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import {
  CONCURRENT_SUITE,
  ANIMATED_OUTPUTS,
  FORMATS,
  READABLE_ROWS,
  ROWS,
  WRITABLE,
  compress,
  expectSize,
  expectedSize,
  formatById,
  formatOfFile,
  inputFacts,
  sharpName,
} from './support.ts'

announceCorpusSkip('corpus conversion matrix')

// Small, so that 20 MP inputs and AVIF encoding keep the whole matrix within a few seconds per input.
const WIDTH = 64

describe.skipIf(!HAS_CORPUS)('corpus conversion matrix', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  // Guards the derived sets: if /api/formats lost a codec, the matrix would shrink silently.
  test('GET /api/formats makes every non-bad corpus file readable, HEIC and JPEG XL included, and writes the six outputs and ICO', () => {
    expect(ROWS.filter((r) => /^(heic|jxl)-/.test(r.file)).every((r) => formatOfFile(r.file)?.input)).toBe(
      true,
    )
    const expectedReadable = ROWS.filter((r) => !/^(bad|jxl)-/.test(r.file))
    expect(READABLE_ROWS.map((r) => r.file)).toEqual(expectedReadable.map((r) => r.file))
    expect([...WRITABLE].sort()).toEqual(['avif', 'gif', 'jpeg', 'png', 'tiff', 'webp'])
    expect(FORMATS.filter((f) => f.output).map((f) => f.id)).toContain('ico')
    expect([...ANIMATED_OUTPUTS].sort()).toEqual(['gif', 'webp'])
    for (const row of ROWS) expect(formatOfFile(row.file)).toBeDefined()
  })

  for (const row of READABLE_ROWS) {
    describe(row.file, () => {
      for (const output of WRITABLE) {
        test.concurrent(
          `converts ${row.file} to ${output} at width ${WIDTH} with the expected format, size and frames`,
          async () => {
            const input = await inputFacts(row.file)
            const result = await compress(api, input.bytes, row.file, {
              format: output,
              width: String(WIDTH),
            })
            expect(result.status).toBe(200)
            expect(result.header('content-type')).toBe(formatById(output).mime)
            expect(result.header('x-original-format')).toBe(input.format.id)
            expect(result.header('x-output-format')).toBe(output)

            const decoded = await decode(result.bytes)
            expect(MAGIC[output]!(result.bytes)).toBe(true)
            expect(decoded.format).toBe(sharpName(output))
            if (output === 'avif') expect(decoded.metadata.compression).toBe('av1')

            expectSize(decoded, expectedSize(input, { width: WIDTH }))
            const frames = ANIMATED_OUTPUTS.includes(output) ? input.frames : 1
            expect(decoded.pages).toBe(frames)
            expect(result.int('x-image-width')).toBe(decoded.width)
            expect(result.int('x-image-height')).toBe(decoded.height)

            // A full decode catches truncated or damaged output that a header read would miss.
            const pixels = await decodePixels(result.bytes)
            expect(pixels.length).toBe(decoded.width * decoded.height * frames * decoded.metadata.channels!)
            expect(result.int('x-compressed-size')).toBe(result.bytes.length)
            expect(result.int('x-original-size')).toBe(input.bytes.length)
          },
        )
      }
    })
  }
})

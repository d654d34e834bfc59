import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { containsAscii, decode, jpegWithGps } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import { CONCURRENT_SUITE, WRITABLE, compress, inputFacts } from './support.ts'

announceCorpusSkip('corpus metadata')

/** Corpus files that carry EXIF, XMP, IPTC or ICC, per the manifest. */
const WITH_METADATA = [
  'photo-forest-path-4mp.jpg',
  'photo-cmyk-icc.jpg',
  'photo-pier-4mp.jpg',
  'photo-lake-dusk-4mp-progressive.jpg',
  'png-photo-butterfly-6mp.png',
]

/** Outputs whose libvips savers write EXIF, ICC and XMP; TIFF writes no EXIF and GIF none of them. */
const CARRIES_METADATA = ['jpeg', 'png', 'webp', 'avif']

/** The colour space field of an ICC profile header (bytes 16-19), e.g. "RGB " or "CMYK". */
const iccColourSpace = (icc: Buffer) => icc.subarray(16, 20).toString('latin1')

describe.skipIf(!HAS_CORPUS)('corpus metadata', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  test('the metadata inputs really carry EXIF or XMP, so the strip tests can fail', async () => {
    for (const file of WITH_METADATA) {
      const { decoded } = await inputFacts(file)
      expect({ file, carries: decoded.hasExif || decoded.hasXmp }).toEqual({ file, carries: true })
    }
  })

  for (const file of WITH_METADATA) {
    test.concurrent(`${file}: by default every output format has no EXIF, XMP or IPTC`, async () => {
      const input = await inputFacts(file)
      for (const output of WRITABLE) {
        const result = await compress(api, input.bytes, file, { format: output, width: '160' })
        expect(result.status).toBe(200)
        const { hasExif, hasXmp, metadata } = await decode(result.bytes)
        expect({ output, hasExif, hasXmp, iptc: metadata.iptc !== undefined }).toEqual({
          output,
          hasExif: false,
          hasXmp: false,
          iptc: false,
        })
      }
    })

    test.concurrent(
      `${file}: metadata=keep keeps EXIF, and ICC and XMP where present, in ${CARRIES_METADATA.join(', ')}`,
      async () => {
        const input = await inputFacts(file)
        for (const output of CARRIES_METADATA) {
          const result = await compress(api, input.bytes, file, {
            format: output,
            width: '160',
            metadata: 'keep',
          })
          expect(result.status).toBe(200)
          const decoded = await decode(result.bytes)
          expect({ output, exif: decoded.hasExif, xmp: decoded.hasXmp }).toEqual({
            output,
            exif: true,
            xmp: input.decoded.hasXmp,
          })
          if (input.decoded.hasIcc) expect({ output, icc: decoded.hasIcc }).toEqual({ output, icc: true })
          expect(decoded.orientation ?? 1).toBe(1)
          // Pixels are converted to sRGB, so a kept profile must describe RGB, never the input's CMYK.
          if (decoded.hasIcc) expect(iccColourSpace(decoded.metadata.icc!)).toBe('RGB ')
        }
      },
    )
  }

  test.concurrent(
    'a phone JPEG with GPS loses its camera make and GPS position in every output format',
    async () => {
      const input = await jpegWithGps()
      for (const output of ['original', ...WRITABLE]) {
        const result = await compress(api, input, 'phone.jpg', { format: output })
        expect(result.status).toBe(200)
        const leaks = {
          output,
          exif: (await decode(result.bytes)).hasExif,
          make: containsAscii(result.bytes, 'LeakyPhone'),
          model: containsAscii(result.bytes, 'GPS-1'),
        }
        expect(leaks).toEqual({ output, exif: false, make: false, model: false })
      }
    },
  )

  // Shows the byte search above can see EXIF text at all in each container.
  test.concurrent(
    'with metadata=keep the same JPEG keeps its camera make in formats that carry EXIF',
    async () => {
      const input = await jpegWithGps()
      expect(containsAscii(input, 'LeakyPhone')).toBe(true)
      for (const output of CARRIES_METADATA) {
        const result = await compress(api, input, 'phone.jpg', { format: output, metadata: 'keep' })
        expect({ output, make: containsAscii(result.bytes, 'LeakyPhone') }).toEqual({ output, make: true })
      }
    },
  )
})

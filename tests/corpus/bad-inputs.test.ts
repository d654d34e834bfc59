import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode, decodePixels } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip, corpusFile } from '../helpers/paths.ts'
import { multipart, post, problemOf, rawBody } from '../helpers/requests.ts'
import { BAD_ROWS } from './support.ts'

announceCorpusSkip('bad corpus inputs')

/** The documented outcome of every hostile or damaged corpus file. */
const EXPECTED: Record<string, { code: string; status: number }> = {
  'bad-zero-bytes.jpg': { code: 'MISSING_FILE', status: 400 },
  'bad-truncated.jpg': { code: 'CORRUPT_IMAGE', status: 422 },
  'bad-truncated.png': { code: 'CORRUPT_IMAGE', status: 422 },
  'bad-corrupt-header.jpg': { code: 'CORRUPT_IMAGE', status: 422 },
  'bad-text-file.png': { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
  'bad-bomb-65536x65536.png': { code: 'IMAGE_TOO_LARGE', status: 422 },
  'bad-svg-xinclude-etc-passwd.svg': { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
  'bad-svg-external-urls.svg': { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
  'bad-heic-clap-overflow.heic': { code: 'CORRUPT_IMAGE', status: 422 },
}

// libvips/libpng/libjpeg wording or a stack trace in `detail` would leak internals to clients.
const INTERNALS = /vips|libpng|libjpeg|libspng|libheif|librsvg|node_modules|\.ts:\d|\n\s+at /i

const GOOD_FILE = 'webp-lossy-alpha.webp'

const TRANSPORTS: Record<string, (bytes: Uint8Array, file: string) => { path: string; init: RequestInit }> = {
  multipart: (bytes, file) => ({ path: '/api/compress', init: post(multipart(bytes, file)) }),
  'raw body': (bytes) => ({ path: '/api/compress?format=png', init: rawBody(bytes) }),
}

describe.skipIf(!HAS_CORPUS)('bad corpus inputs', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(async () => {
    await api.stop()
  })

  test('every bad-* corpus file has a documented outcome', () => {
    expect(BAD_ROWS.map((r) => r.file).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  for (const [file, expected] of Object.entries(EXPECTED)) {
    for (const [transport, request] of Object.entries(TRANSPORTS)) {
      test(`${file} sent as ${transport} gets ${expected.status} ${expected.code}, and the service keeps working`, async () => {
        const bytes = await corpusFile(file)
        const { path, init } = request(bytes, file)
        const response = await api.fetch(path, init)
        const problem = await problemOf(response)
        expect({ status: response.status, code: problem.code }).toEqual(expected)
        expect(problem.status).toBe(expected.status)
        expect(problem.contentType).toStartWith('application/problem+json')
        expect(problem.requestId).toBeString()
        expect(problem.requestId.length).toBeGreaterThan(0)
        expect(problem.detail).toBeString()
        expect(problem.detail).not.toMatch(INTERNALS)
        // The XInclude file points at /etc/passwd: none of it may come back.
        expect(JSON.stringify(problem)).not.toContain('root:')

        const health = await api.fetch('/api/health')
        expect(health.status).toBe(200)
        const good = await api.fetch(
          '/api/compress',
          post(multipart(await corpusFile(GOOD_FILE), GOOD_FILE, { width: '40' })),
        )
        expect(good.status).toBe(200)
        const out = new Uint8Array(await good.arrayBuffer())
        expect((await decode(out)).width).toBe(40)
        await decodePixels(out)
      })
    }
  }
})

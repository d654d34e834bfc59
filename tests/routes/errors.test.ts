import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { FIXTURES, fixture, readManifest } from '../helpers/paths.ts'
import { multipart, post, problemOf, rawBody } from '../helpers/requests.ts'

/** The documented outcome of each hostile or broken fixture. */
const EXPECTED: Record<string, [number, string]> = {
  'bad-zero-bytes.jpg': [400, 'MISSING_FILE'],
  'bad-truncated.jpg': [422, 'CORRUPT_IMAGE'],
  'bad-truncated.png': [422, 'CORRUPT_IMAGE'],
  'bad-corrupt-header.jpg': [422, 'CORRUPT_IMAGE'],
  'bad-text-file.png': [415, 'UNSUPPORTED_MEDIA_TYPE'],
  'bad-bomb-65536x65536.png': [422, 'IMAGE_TOO_LARGE'],
  'bad-svg-xinclude-etc-passwd.svg': [415, 'UNSUPPORTED_MEDIA_TYPE'],
  'bad-svg-external-urls.svg': [415, 'UNSUPPORTED_MEDIA_TYPE'],
}

const LEAKS = [/vips/i, /libpng/i, /\n\s+at /, /sharp/i, /\.ts:\d+/]

describe('errors: one problem+json shape for everything', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  test('404 for an unknown path, as problem+json with a request id matching the header', async () => {
    const response = await api.fetch('/api/nope')
    const problem = await problemOf(response)
    expect(response.status).toBe(404)
    expect(problem.contentType).toBe('application/problem+json')
    expect(problem).toMatchObject({
      type: '/docs/errors#NOT_FOUND',
      title: 'Not found',
      status: 404,
      code: 'NOT_FOUND',
    })
    expect(problem.detail).toContain('GET /api/nope')
    expect(problem.requestId).toBe(problem.requestIdHeader!)
  })

  test('405 with Allow for a known path and the wrong method', async () => {
    const response = await api.fetch('/api/compress')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, OPTIONS')
    expect((await problemOf(response)).code).toBe('METHOD_NOT_ALLOWED')
    const health = await api.fetch('/api/health', { method: 'DELETE' })
    expect([health.status, health.headers.get('allow')]).toEqual([405, 'GET, OPTIONS'])
  })

  test('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
    const mine = await api.fetch('/api/health', { headers: { 'x-request-id': 'trace-123.abc' } })
    expect(mine.headers.get('x-request-id')).toBe('trace-123.abc')
    const hostile = await api.fetch('/api/nope', { headers: { 'x-request-id': 'a b<script>' } })
    const problem = await problemOf(hostile)
    expect(problem.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(problem.requestIdHeader).toBe(problem.requestId)
  })

  test('400 INVALID_PARAMETER lists every bad field with what was expected and received', async () => {
    const response = await api.fetch(
      '/api/compress?quality=0&fit=squash&bogus=1',
      rawBody(await fixture('webp-lossy-alpha.webp')),
    )
    const problem = await problemOf(response)
    expect([response.status, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
    expect(problem.errors!.map((e) => e.name)).toEqual(['quality', 'fit', 'bogus'])
    expect(problem.errors![0]!.reason).toBe(
      'expected an integer from 1 to 100, or one of auto, auto-high, auto-medium, auto-low, received "0"',
    )
    expect(problem.detail).toContain(
      'quality: expected an integer from 1 to 100, or one of auto, auto-high, auto-medium, auto-low, received "0"',
    )
  })

  test('400 for many unknown options stays within the Problem schema: detail under 8192, each reason under 512', async () => {
    const query = Array.from({ length: 40 }, (_, i) => `notAnOption${i}=1`).join('&')
    const response = await api.fetch(
      `/api/compress?${query}`,
      rawBody(await fixture('png-tiny-1x1-prophoto-icc.png')),
    )
    const text = await response.text()
    const problem = JSON.parse(text)
    expect([response.status, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
    // 19 unknown options once made a detail of 8,941 characters and an answer of 18.9 KB.
    expect(problem.detail.length).toBeLessThanOrEqual(8192)
    for (const error of problem.errors) expect(error.reason.length).toBeLessThanOrEqual(512)
    expect(text.length).toBeLessThan(8192)
    expect(problem.errorsOmitted).toBe(20)
  })

  test('400 INVALID_PARAMETER for an effort outside the chosen format native range', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress?format=webp&effort=9', rawBody(await fixture('webp-lossy-alpha.webp'))),
    )
    expect(problem.code).toBe('INVALID_PARAMETER')
    expect(problem.errors).toEqual([
      { name: 'effort', reason: 'expected an integer from 0 to 6 for webp output, received 9' },
    ])
  })

  test('400 INVALID_PARAMETER for an option given twice with different values', async () => {
    const form = multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp', { quality: '50' })
    const problem = await problemOf(await api.fetch('/api/compress?quality=60', post(form)))
    expect(problem.code).toBe('INVALID_PARAMETER')
    expect(problem.errors![0]!.name).toBe('quality')
  })

  test('400 MISSING_FILE for multipart without a file, and for an empty body', async () => {
    const form = new FormData()
    form.append('format', 'webp')
    const missing = await problemOf(await api.fetch('/api/compress', post(form)))
    expect([missing.httpStatus, missing.code]).toEqual([400, 'MISSING_FILE'])
    expect(missing.detail).toContain('"file"')
    const empty = await problemOf(await api.fetch('/api/compress', { method: 'POST' }))
    expect([empty.httpStatus, empty.code]).toEqual([400, 'MISSING_FILE'])
  })

  test('400 MALFORMED_REQUEST for a multipart body that does not parse', async () => {
    const response = await api.fetch('/api/compress', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: 'this is not multipart',
    })
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([400, 'MALFORMED_REQUEST'])
  })

  const badFixtures = readManifest(FIXTURES).filter((row) => row.file.startsWith('bad-'))

  test('every bad fixture has a documented outcome', () => {
    expect(badFixtures.map((row) => row.file).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  for (const { file } of badFixtures) {
    test(`${file} gets ${EXPECTED[file]!.join(' ')} by multipart and raw body, with no internal text`, async () => {
      const bytes = await fixture(file)
      for (const init of [post(multipart(bytes, file)), rawBody(bytes)]) {
        const problem = await problemOf(await api.fetch('/api/compress', init))
        expect([problem.httpStatus, problem.code]).toEqual(EXPECTED[file]!)
        expect(problem.contentType).toBe('application/problem+json')
        for (const leak of LEAKS) expect(problem.detail).not.toMatch(leak)
      }
      expect((await api.fetch('/api/health')).status).toBe(200)
    })
  }

  test('refuses the decompression bomb from its header, naming its declared size', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress', rawBody(await fixture('bad-bomb-65536x65536.png'))),
    )
    expect(problem.detail).toContain('65536x65536')
    expect(problem.detail).toContain('100000000')
  })

  test('keeps serving good images after all the bad ones', async () => {
    const response = await api.fetch(
      '/api/compress?format=png',
      rawBody(await fixture('webp-lossy-alpha.webp')),
    )
    expect(response.status).toBe(200)
  })
})

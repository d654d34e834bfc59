import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode, noisyImage } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf, rawBody } from '../helpers/requests.ts'

const waitFor = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return
    await Bun.sleep(25)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('upload limit over a real socket', () => {
  let api: Api
  const limit = 100_000
  beforeAll(async () => {
    api = await startApi({ maxUploadBytes: limit }, { socket: true })
  })
  afterAll(() => api.stop())

  test('refuses a declared body over the limit with a JSON 413', async () => {
    const response = await api.fetch('/api/compress', rawBody(new Uint8Array(limit * 3)))
    const problem = await problemOf(response)
    expect([response.status, problem.code, problem.contentType]).toEqual([
      413,
      'PAYLOAD_TOO_LARGE',
      'application/problem+json',
    ])
    expect(problem.detail).toContain(String(limit))
  })

  test('refuses a chunked body over the limit with a JSON 413', async () => {
    const chunk = new Uint8Array(16_384)
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(chunk)
        controller.close()
      },
    })
    const response = await api.fetch('/api/compress', { method: 'POST', body, duplex: 'half' } as RequestInit)
    expect(response.headers.get('content-length')).not.toBe(String(chunk.length * 20))
    const problem = await problemOf(response)
    expect([response.status, problem.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
  })

  test('refuses a multipart file over the limit with a JSON 413', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress', post(multipart(new Uint8Array(limit + 10), 'big.jpg'))),
    )
    expect([problem.httpStatus, problem.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
  })

  test('still serves, with Content-Length, after refusing large bodies', async () => {
    const response = await api.fetch(
      '/api/compress?format=png',
      rawBody(await fixture('webp-lossy-alpha.webp')),
    )
    const body = await response.arrayBuffer()
    expect(response.status).toBe(200)
    expect(Number(response.headers.get('content-length'))).toBe(body.byteLength)
  })
})

describe('image limits from the header', () => {
  test('refuses an input over the pixel limit with 422 IMAGE_TOO_LARGE', async () => {
    const api = await startApi({ maxInputPixels: 200_000 })
    const problem = await problemOf(
      await api.fetch('/api/compress', rawBody(await fixture('photo-exif-orientation-6.jpg'))),
    )
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('600x450')
    await api.stop()
  })

  test('refuses an animation over the frame limit, but not its first frame alone', async () => {
    const api = await startApi({ maxFrames: 5 })
    const gif = await fixture('gif-animated-10frames.gif')
    const problem = await problemOf(await api.fetch('/api/compress?format=webp', rawBody(gif)))
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('10 frames')
    await api.stop()
  })

  test('bounds requested and resulting output dimensions', async () => {
    const api = await startApi({ maxOutputDimension: 1000 })
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const asked = await problemOf(await api.fetch('/api/compress?width=2000', rawBody(photo)))
    expect([asked.httpStatus, asked.code, asked.errors?.[0]?.name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'width',
    ])
    // The range stated is this server's, as /api/formats and the OpenAPI document state it,
    // whether the value is just over it or over the largest any server allows.
    expect(asked.errors?.[0]?.reason).toBe('expected an integer from 1 to 1000, received "2000"')
    const far = await problemOf(await api.fetch('/api/compress?height=70000', rawBody(photo)))
    expect(far.errors?.[0]?.reason).toBe('expected an integer from 1 to 1000, received "70000"')
    const result = await problemOf(
      await api.fetch(
        '/api/compress?width=1000&height=1000&fit=outside&withoutEnlargement=false',
        rawBody(photo),
      ),
    )
    expect([result.httpStatus, result.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    await api.stop()
  })
})

describe('queue overflow and timeouts', () => {
  let big: Uint8Array
  beforeAll(async () => {
    big = await noisyImage(2000, 1500)
  })

  test('answers 503 OVERLOADED with Retry-After once workers and queue are full, then recovers', async () => {
    // Every request here comes from one client: its own cap (tests/access) is lifted.
    const api = await startApi({ workers: 1, queueLength: 1, maxClientJobs: 100 })
    // WebP at effort 6 on 3 MP of noise: a few seconds of real work, interruptible by libvips.
    const slow = () => api.fetch('/api/compress?format=webp&effort=6&quality=90', rawBody(big))
    const stats = async () => (await (await api.fetch('/api/health')).json()).queue
    const first = slow()
    await waitFor(async () => (await stats()).running === 1, 'the first job to run')
    const second = slow()
    await waitFor(async () => (await stats()).waiting === 1, 'the second job to wait')
    const refused = await api.fetch(
      '/api/compress?format=png',
      rawBody(await fixture('webp-lossy-alpha.webp')),
    )
    const problem = await problemOf(refused)
    expect([refused.status, problem.code]).toEqual([503, 'OVERLOADED'])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
    expect(
      (await api.fetch('/api/compress?format=png', rawBody(await fixture('webp-lossy-alpha.webp')))).status,
    ).toBe(200)
    await api.stop()
  }, 120_000)

  test('answers 422 PROCESSING_TIMEOUT for a job over its time (the image, not the load: no Retry-After) and keeps serving', async () => {
    const api = await startApi({ jobTimeoutMs: 200 })
    const response = await api.fetch('/api/compress?format=webp&effort=6', rawBody(big))
    expect(response.headers.get('retry-after')).toBeNull()
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([422, 'PROCESSING_TIMEOUT'])
    expect(problem.detail).toContain('200 ms')
    const tiny = await api.fetch(
      '/api/compress?format=png&width=10',
      rawBody(await fixture('png-tiny-1x1-prophoto-icc.png')),
    )
    expect(tiny.status).toBe(200)
    expect((await decode(await tiny.arrayBuffer())).format).toBe('png')
    await api.stop()
  }, 120_000)
})

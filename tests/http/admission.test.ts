import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Socket } from 'node:net'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawExchange } from '../helpers/raw-http.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const uploadHead = (length: number) =>
  `POST /api/compress HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`

/** Starts an upload that sends its head and a few bytes, then holds the connection open. */
function holdUpload(url: string, length: number) {
  let socket: Socket | undefined
  const exchange = rawExchange(
    url,
    (s) => {
      socket = s
      s.write(uploadHead(length))
      s.write(new Uint8Array(10))
    },
    20_000,
  )
  return { exchange, end: () => socket?.destroy() }
}

/** Polls `check` for up to 10 s: what it waits for takes milliseconds, unless the machine is busy. */
async function waitFor(check: () => Promise<boolean>, what: string) {
  for (const deadline = performance.now() + 10_000; performance.now() < deadline;) {
    if (await check()) return
    await Bun.sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('admission before the body is read', () => {
  let api: Api
  const maxUploadBytes = 200_000
  beforeAll(async () => {
    api = await startApi(
      // Every request here comes from one client: its own cap (tests/access) is lifted.
      { maxUploadBytes, uploadBudgetBytes: 300_000, workers: 1, queueLength: 1, maxClientJobs: 100 },
      { socket: true },
    )
  })
  afterAll(() => api.stop())

  const health = async () => (await (await api.fetch('/api/health')).json()) as Record<string, any>

  test('refuses an upload that does not fit the upload budget with 503 OVERLOADED at once, before reading it', async () => {
    const held = holdUpload(api.url, maxUploadBytes)
    await waitFor(
      async () => (await health()).uploads.usedBytes === maxUploadBytes,
      'the first upload to be admitted',
    )
    // Only the head is sent: an answer at all shows the body was never waited for.
    const exchange = await rawExchange(
      api.url,
      (socket) => void socket.write(uploadHead(maxUploadBytes)),
      20_000,
      1,
    )
    const [refused] = exchange.responses
    expect(refused?.status).toBe(503)
    const problem = JSON.parse(refused!.body)
    expect(problem.code).toBe('OVERLOADED')
    expect(problem.detail).toContain('upload budget')
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // A small upload still fits next to the held one.
    const small = await api.fetch('/api/compress?format=png', rawBody(await fixture('webp-lossy-alpha.webp')))
    expect(small.status).toBe(200)
    held.end()
    await held.exchange
    await waitFor(async () => (await health()).uploads.usedBytes === 0, 'the budget to be given back')
  })

  test('counts uploads in progress against the queue, so a full queue is refused before any body is read', async () => {
    const first = holdUpload(api.url, 1000)
    const second = holdUpload(api.url, 1000)
    await waitFor(async () => (await health()).queue.waiting === 2, 'two uploads to be admitted')
    // Only the head is sent: an answer at all shows the body was never waited for.
    const exchange = await rawExchange(api.url, (socket) => void socket.write(uploadHead(50_000)), 20_000, 1)
    const [refused] = exchange.responses
    expect(refused?.status).toBe(503)
    expect(JSON.parse(refused!.body).code).toBe('OVERLOADED')
    first.end()
    second.end()
    await Promise.all([first.exchange, second.exchange])
    await waitFor(async () => (await health()).queue.waiting === 0, 'the queue to empty')
  })
})

describe('limits on what a request may ask for, checked before decoding', () => {
  const tinyPng = async () =>
    new Uint8Array(
      await (
        await import('sharp')
      )
        .default({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
        .png()
        .toBuffer(),
    )

  test('refuses enlarging a 1x1 PNG to 16383x16383 with 422 IMAGE_TOO_LARGE before doing the work', async () => {
    const api = await startApi()
    const started = performance.now()
    const problem = await problemOf(
      await api.fetch(
        '/api/compress?width=16383&height=16383&fit=fill&withoutEnlargement=false&format=jpeg',
        rawBody(await tinyPng()),
      ),
    )
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('16383x16383')
    // Doing the work would take many seconds; the margin is for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000)
    await api.stop()
  })

  test('counts every frame of an animated output: a 10-frame GIF widened to 16383 is refused', async () => {
    const api = await startApi()
    const started = performance.now()
    const problem = await problemOf(
      await api.fetch(
        '/api/compress?format=webp&width=16383&withoutEnlargement=false',
        rawBody(await fixture('gif-animated-10frames.gif')),
      ),
    )
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('x 10 frames')
    // Doing the work would take many seconds; the margin is for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000)
    await api.stop()
  })

  test('publishes and accepts every AVIF effort the encoder has: a job too slow is stopped at its time instead', async () => {
    const api = await startApi()
    const formats = await (await api.fetch('/api/formats')).json()
    const avif = formats.formats.find((f: { id: string }) => f.id === 'avif')
    expect(avif.tunables.effort).toMatchObject({ min: 0, max: 9, default: 3 })
    const response = await api.fetch(
      '/api/compress?format=avif&effort=9&width=64',
      rawBody(await fixture('webp-lossy-alpha.webp')),
    )
    expect(response.status).toBe(200)
    await api.stop()
  })

  test('refuses a job whose estimated memory exceeds the whole decode budget with 422', async () => {
    const api = await startApi({ decodeBudgetBytes: 1_000_000 })
    const problem = await problemOf(
      await api.fetch('/api/compress?format=webp', rawBody(await fixture('photo-exif-orientation-6.jpg'))),
    )
    expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
    expect(problem.detail).toContain('decode budget')
    await api.stop()
  })
})

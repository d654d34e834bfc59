import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode, noisyImage } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'
import { busy, EXAMPLES, gaps, problem, refusingProxy } from './example-runner.ts'

interface BackoffExample {
  fetchWithBackoff(
    url: string,
    init?: RequestInit,
    options?: { attempts?: number; baseMs?: number; capMs?: number },
  ): Promise<Response>
}
const { fetchWithBackoff }: BackoffExample = await import(join(EXAMPLES, 'backoff.mjs'))

interface Attempt {
  /** When it was sent. */
  readonly at: number
  readonly status: number
  readonly retryAfter: string | null
}

/** Calls `run` with the global fetch wrapped, so every attempt and its answer are seen. */
async function recordingAttempts<T>(run: () => Promise<T>): Promise<{ result: T; attempts: Attempt[] }> {
  const realFetch = globalThis.fetch
  const attempts: Attempt[] = []
  const spy = spyOn(globalThis, 'fetch').mockImplementation((async (
    input: RequestInfo | URL,
    init?: RequestInit,
  ) => {
    const at = performance.now()
    const response = await realFetch(input, init)
    attempts.push({
      at,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
    })
    return response
  }) as typeof fetch)
  try {
    return { result: await run(), attempts }
  } finally {
    spy.mockRestore()
  }
}

describe('static/examples/backoff.mjs against a server whose only worker is busy', () => {
  let api: Api
  let slowImage: Uint8Array
  beforeAll(async () => {
    // The busy job and the example's requests all come from this one address: the per-client
    // cap (tested in tests/access) is lifted so the answer is the full queue's 503.
    api = await startApi({ workers: 1, queueLength: 0, maxClientJobs: 100 }, { socket: true })
    // WebP at effort 6 on 3 MP of noise: a few seconds of real work for the one worker.
    slowImage = await noisyImage(2000, 1500)
  })
  afterAll(() => api.stop())

  /** Resolves once the slow job runs, with the promise of its answer. */
  async function occupyTheWorker(): Promise<{ finished: Promise<Response> }> {
    const finished = api.fetch('/api/compress?format=webp&effort=6', rawBody(slowImage))
    for (let waited = 0; (await (await api.fetch('/api/health')).json()).queue.running !== 1; waited += 20) {
      if (waited > 20_000) throw new Error('the slow job never started')
      await Bun.sleep(20)
    }
    return { finished }
  }

  test('gets 503 OVERLOADED, waits Retry-After seconds each time, then succeeds', async () => {
    const slow = await occupyTheWorker()
    const small = rawBody(await fixture('webp-lossy-alpha.webp'))
    const { result, attempts } = await recordingAttempts(() =>
      fetchWithBackoff(`${api.url}/api/compress?format=png`, small, { attempts: 20 }),
    )
    expect(result.status).toBe(200)
    expect((await decode(await result.arrayBuffer())).format).toBe('png')
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    expect(attempts.at(-1)!.status).toBe(200)
    const refused = attempts.slice(0, -1)
    expect(refused.map((attempt) => attempt.status)).toEqual(refused.map(() => 503))
    gaps(attempts.map((attempt) => attempt.at)).forEach((gap, i) => {
      const retryAfterMs = Number(refused[i]!.retryAfter) * 1000
      expect(retryAfterMs).toBeGreaterThanOrEqual(1000)
      expect(gap).toBeGreaterThanOrEqual(retryAfterMs - 15) // timers may fire a few ms early
      expect(gap).toBeLessThan(retryAfterMs + 3000)
    })
    expect((await (await slow.finished).arrayBuffer()).byteLength).toBeGreaterThan(0)
  }, 60_000)

  test('returns the last 503 when the attempts run out', async () => {
    const slow = await occupyTheWorker()
    const small = rawBody(await fixture('webp-lossy-alpha.webp'))
    const { result, attempts } = await recordingAttempts(() =>
      fetchWithBackoff(`${api.url}/api/compress?format=png`, small, { attempts: 1 }),
    )
    expect([attempts.length, result.status, (await result.json()).code]).toEqual([1, 503, 'OVERLOADED'])
    await (await slow.finished).arrayBuffer()
  }, 60_000)

  test('never retries another 4xx, such as 415 for a text file', async () => {
    const notes = rawBody(new TextEncoder().encode('meeting notes, not a photo'))
    const { result, attempts } = await recordingAttempts(() =>
      fetchWithBackoff(`${api.url}/api/compress`, notes),
    )
    expect([attempts.length, result.status, (await result.json()).code]).toEqual([
      1,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ])
  })
})

describe('static/examples/backoff.mjs behind a proxy that answers as told', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('returns a 408, 422, 500, 502 or 504 at once, without a second attempt', async () => {
    for (const status of [408, 422, 500, 502, 504]) {
      const proxy = refusingProxy(api.url, [() => problem(status, 'PROCESSING_TIMEOUT')])
      try {
        const image = rawBody(await fixture('png-tiny-1x1-prophoto-icc.png'))
        const response = await fetchWithBackoff(`${proxy.url}/api/compress`, image, { baseMs: 1 })
        expect([status, response.status, proxy.arrivals.length]).toEqual([status, status, 1])
      } finally {
        proxy.stop()
      }
    }
  })

  test('backs off with full jitter: each wait is under baseMs * 2^n, capped at capMs', async () => {
    const proxy = refusingProxy(api.url, [() => busy(503), () => busy(429), () => busy(503), () => busy(429)])
    // Each wait is then half its limit: at least that, and under the limit with room for a busy machine.
    const random = spyOn(Math, 'random').mockReturnValue(0.5)
    try {
      const image = rawBody(await fixture('png-tiny-1x1-prophoto-icc.png'))
      const response = await fetchWithBackoff(`${proxy.url}/api/compress?format=webp`, image, {
        baseMs: 400,
        capMs: 1200,
      })
      expect(response.status).toBe(200)
      expect((await decode(await response.arrayBuffer())).format).toBe('webp')
      expect(proxy.arrivals).toHaveLength(5)
      const limits = [400, 800, 1200, 1200] // 400 * 2^n, capped at 1200
      gaps(proxy.arrivals).forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(limits[i]! / 2 - 15) // timers may fire a few ms early
        expect(gap).toBeLessThan(limits[i]!)
      })
    } finally {
      random.mockRestore()
      proxy.stop()
    }
  })
})

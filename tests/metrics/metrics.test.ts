import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import pkg from '../../package.json' with { type: 'json' }
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { parseMetrics, promtoolCheck, samples, valueOf, type Exposition } from '../helpers/prometheus.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const PHOTO = 'photo-exif-orientation-6.jpg'

async function scrape(api: Api, init?: RequestInit): Promise<{ text: string; families: Exposition }> {
  const response = await api.fetch('/metrics', init)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  const text = await response.text()
  return { text, families: parseMetrics(text) }
}

// onAfterResponse runs after the answer is sent; give it a moment before scraping.
const settled = () => Bun.sleep(20)

describe('GET /metrics', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('counts a compression: request by route and status, duration by status class and output format, bytes in and out, ratio', async () => {
    const input = await fixture(PHOTO)
    const response = await api.fetch('/api/compress?format=webp', rawBody(input, 'image/jpeg'))
    expect(response.status).toBe(200)
    const output = new Uint8Array(await response.arrayBuffer())
    expect((await sharp(output).metadata()).format).toBe('webp')
    await settled()
    const { families } = await scrape(api)

    expect(
      valueOf(families, 'imgapi_http_requests_total', {
        method: 'POST',
        route: '/api/compress',
        status: '200',
      }),
    ).toBe(1)
    expect(families.types.get('imgapi_compress_duration_seconds')).toBe('histogram')
    const webp = { format: 'webp' }
    const answered = { status_class: '2xx', ...webp }
    expect(valueOf(families, 'imgapi_compress_duration_seconds_count', answered)).toBe(1)
    expect(valueOf(families, 'imgapi_compress_duration_seconds_bucket', { ...answered, le: '+Inf' })).toBe(1)
    expect(valueOf(families, 'imgapi_compress_duration_seconds_sum', answered)).toBeGreaterThan(0)
    expect(valueOf(families, 'imgapi_compress_input_bytes_total', { format: 'jpeg' })).toBe(input.length)
    expect(valueOf(families, 'imgapi_compress_output_bytes_total', webp)).toBe(output.length)
    expect(valueOf(families, 'imgapi_compress_ratio_sum', webp)).toBeCloseTo(output.length / input.length, 6)
    expect(valueOf(families, 'imgapi_compress_ratio_bucket', { ...webp, le: '1' })).toBe(1)
  })

  test('labels requests by route template, never by raw path: 200 made-up paths make one series', async () => {
    for (let i = 0; i < 200; i++) expect((await api.fetch(`/no-such-page-${i}?x=${i}`)).status).toBe(404)
    for (let i = 0; i < 5; i++) await api.fetch(`/docs/assets/missing-${i}.js`)
    await settled()
    const { families, text } = await scrape(api)
    expect(
      valueOf(families, 'imgapi_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(200)
    expect(samples(families, 'imgapi_http_requests_total', { route: '/docs/assets/:file' })).toHaveLength(1)
    expect(text).not.toContain('no-such-page')
    // The made-up paths and the missing assets alike are answered NOT_FOUND.
    expect(valueOf(families, 'imgapi_rejected_requests_total', { code: 'NOT_FOUND' })).toBe(205)
  })

  test('shows the queue, the workers, the budgets and which build runs', async () => {
    const ticket = api.context!.queue.admit()
    try {
      const { families } = await scrape(api)
      expect(valueOf(families, 'imgapi_queue_waiting_jobs')).toBe(1)
      expect(valueOf(families, 'imgapi_workers_busy')).toBe(0)
      expect(valueOf(families, 'imgapi_workers')).toBe(api.context!.config.workers)
      expect(valueOf(families, 'imgapi_decode_memory_budget_bytes')).toBe(
        api.context!.memory.decodeBudgetBytes,
      )
      expect(valueOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024)
      const [build] = samples(families, 'imgapi_build_info')
      expect(build!.value).toBe(1)
      expect(build!.labels).toMatchObject({
        version: pkg.version,
        sharp: sharp.versions.sharp,
        libvips: sharp.versions.vips,
      })
      // Without Redis there is no Redis gauge rather than a misleading 0.
      expect(families.types.has('imgapi_redis_up')).toBe(false)
    } finally {
      ticket.release()
    }
  })

  test("passes Prometheus's own linter (promtool check metrics): names, units, _total, HELP and TYPE", async () => {
    await api.fetch('/api/compress?format=png', rawBody(await fixture('png-tiny-1x1-prophoto-icc.png')))
    await settled()
    const { text } = await scrape(api)
    const check = promtoolCheck(text)
    if (!check) {
      if (process.env.CI)
        throw new Error('promtool is missing: .ci/run installs it (Debian package prometheus)')
      console.warn(
        'skipped: promtool is not installed (Debian package prometheus); the JS parser checks still ran',
      )
      return
    }
    expect(check.output.trim()).toBe('')
    expect(check.exitCode).toBe(0)
  })

  test('is left out of the OpenAPI document, as is /livez', async () => {
    const document = await (await api.fetch('/swagger/json')).json()
    expect(Object.keys(document.paths)).not.toContain('/metrics')
    expect(Object.keys(document.paths)).not.toContain('/livez')
  })
})

describe('rate-limited and refused requests', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ rateLimit: 1, rateWindowMs: 60_000, rateBurst: 1 }, { socket: true })
  })

  test('count 429s by which limit refused them, and every problem by its code', async () => {
    const input = await fixture('png-tiny-1x1-prophoto-icc.png')
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await api.fetch('/api/compress', rawBody(input))).status)
    expect(statuses).toEqual([200, 429, 429])
    await settled()
    const { families } = await scrape(api)
    expect(valueOf(families, 'imgapi_rate_limited_requests_total', { limit: 'rate' })).toBe(2)
    expect(valueOf(families, 'imgapi_rate_limited_requests_total', { limit: 'client_jobs' })).toBe(0)
    expect(valueOf(families, 'imgapi_rejected_requests_total', { code: 'RATE_LIMITED' })).toBe(2)
    expect(valueOf(families, 'imgapi_http_requests_total', { route: '/api/compress', status: '429' })).toBe(2)
  })
})

describe('IMGAPI_METRICS_KEY', () => {
  const key = 'metrics-key-0123456789abcdef0123456789'
  let api: Api
  beforeAll(async () => {
    api = await startApi({ metricsKey: key })
  })

  test('without the key: 401 UNAUTHORIZED with WWW-Authenticate, and no metrics', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-api-key': 'wrong' }] as Record<
      string,
      string
    >[]) {
      const response = await api.fetch('/metrics', { headers })
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code]).toEqual([401, 'UNAUTHORIZED'])
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="imgapi-metrics"')
      expect(JSON.stringify(problem)).not.toContain('imgapi_')
    }
  })

  test('with it, as a bearer token: the metrics', async () => {
    const { families } = await scrape(api, { headers: { authorization: `Bearer ${key}` } })
    expect(families.types.get('imgapi_http_requests_total')).toBe('counter')
  })

  test('the API keys do not open it, nor does it open the API', async () => {
    const withKeys = await startApi({ metricsKey: key, apiKeys: 'api-key-0123456789abcdef0123456789' })
    expect(
      (
        await withKeys.fetch('/metrics', {
          headers: { authorization: 'Bearer api-key-0123456789abcdef0123456789' },
        })
      ).status,
    ).toBe(401)
    const compress = await withKeys.fetch('/api/compress', {
      ...rawBody(await fixture('png-tiny-1x1-prophoto-icc.png')),
      headers: { authorization: `Bearer ${key}` },
    })
    expect(compress.status).toBe(401)
  })
})

describe('GET /livez', () => {
  test('answers 200 while the process runs, even when health would not', async () => {
    const api = await startApi()
    api.context!.lifecycle.startDraining()
    expect((await api.fetch('/api/health')).status).toBe(503)
    const response = await api.fetch('/livez')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('ok\n')
  })
})

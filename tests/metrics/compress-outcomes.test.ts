import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { statusClass } from '../../src/metrics/label-sets.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { parseMetrics, samples, valueOf, type Exposition } from '../helpers/prometheus.ts'
import { rawBody } from '../helpers/requests.ts'

// onAfterResponse runs after the answer is sent; give it a moment before scraping.
const settled = () => Bun.sleep(20)
const scrape = async (api: Api): Promise<Exposition> =>
  parseMetrics(await (await api.fetch('/metrics')).text())

/** Holds the only worker with a job the test ends, so nothing below depends on timing. */
function occupyWorker(api: Api) {
  let finish!: () => void
  const held = new Promise<void>((resolve) => (finish = resolve))
  const job = api.context!.queue.run(() => held, { timeoutMs: 120_000, costBytes: 0 })
  return { finish: () => (finish(), job) }
}

const JOB_TIMEOUT_MS = 400

describe('imgapi_compress_*_seconds count every answer, and split waiting from working', () => {
  let api: Api
  let png: Uint8Array
  beforeAll(async () => {
    api = await startApi(
      { workers: 1, queueLength: 4, maxClientJobs: 10, jobTimeoutMs: JOB_TIMEOUT_MS },
      { socket: true },
    )
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
  })
  afterAll(() => api.stop())

  test('a job that times out waiting: its duration by its status class, a queue wait of the timeout, no processing', async () => {
    const worker = occupyWorker(api)
    const response = await api.fetch('/api/compress?format=png', rawBody(png))
    await worker.finish()
    expect(response.status).toBeGreaterThanOrEqual(400)
    const status_class = statusClass(response.status)
    await settled()
    const metrics = await scrape(api)
    expect(valueOf(metrics, 'imgapi_compress_duration_seconds_count', { status_class, format: 'none' })).toBe(
      1,
    )
    expect(valueOf(metrics, 'imgapi_compress_queue_wait_seconds_count', { status_class })).toBe(1)
    // It waited until it was answered: the whole job timeout (timers never fire early by more
    // than a few milliseconds).
    expect(valueOf(metrics, 'imgapi_compress_queue_wait_seconds_sum', { status_class })).toBeGreaterThan(
      (JOB_TIMEOUT_MS - 20) / 1000,
    )
    const processed = samples(metrics, 'imgapi_compress_processing_seconds_count', { status_class })
    expect(processed.reduce((sum, sample) => sum + sample.value, 0)).toBe(0)
  })

  test('a job that waits, then runs: a queue wait and a processing time, both by 2xx and output format', async () => {
    const worker = occupyWorker(api)
    const answer = api.fetch('/api/compress?format=webp', rawBody(png))
    await Bun.sleep(JOB_TIMEOUT_MS / 4)
    await worker.finish()
    expect((await answer).status).toBe(200)
    await settled()
    const metrics = await scrape(api)
    const ok = { status_class: '2xx' }
    expect(valueOf(metrics, 'imgapi_compress_duration_seconds_count', { ...ok, format: 'webp' })).toBe(1)
    expect(valueOf(metrics, 'imgapi_compress_queue_wait_seconds_count', ok)).toBe(1)
    expect(valueOf(metrics, 'imgapi_compress_queue_wait_seconds_sum', ok)).toBeGreaterThan(
      (JOB_TIMEOUT_MS / 4 - 20) / 1000,
    )
    expect(valueOf(metrics, 'imgapi_compress_processing_seconds_count', { ...ok, format: 'webp' })).toBe(1)
    // The total holds both phases.
    expect(
      valueOf(metrics, 'imgapi_compress_duration_seconds_sum', { ...ok, format: 'webp' }),
    ).toBeGreaterThanOrEqual(
      valueOf(metrics, 'imgapi_compress_queue_wait_seconds_sum', ok) +
        valueOf(metrics, 'imgapi_compress_processing_seconds_sum', { ...ok, format: 'webp' }),
    )
  })

  test('an image refused before the queue (415): a 4xx duration, no phase', async () => {
    const before = await scrape(api)
    const response = await api.fetch('/api/compress', rawBody(new TextEncoder().encode('not an image')))
    expect(response.status).toBe(415)
    await settled()
    const after = await scrape(api)
    const count = (m: Exposition, name: string, labels: Record<string, string>) => valueOf(m, name, labels)
    const clientError = { status_class: '4xx' }
    expect(
      count(after, 'imgapi_compress_duration_seconds_count', { ...clientError, format: 'none' }) -
        count(before, 'imgapi_compress_duration_seconds_count', { ...clientError, format: 'none' }),
    ).toBe(1)
    expect(count(after, 'imgapi_compress_queue_wait_seconds_count', clientError)).toBe(
      count(before, 'imgapi_compress_queue_wait_seconds_count', clientError),
    )
  })
})

describe('a compress request refused before its handler runs', () => {
  test('a 429 from the rate limit is a 4xx in imgapi_compress_duration_seconds', async () => {
    const api = await startApi({ rateLimit: 1, rateWindowMs: 60_000, rateBurst: 1 }, { socket: true })
    try {
      const png = await fixture('png-tiny-1x1-prophoto-icc.png')
      const statuses = [
        (await api.fetch('/api/compress', rawBody(png))).status,
        (await api.fetch('/api/compress', rawBody(png))).status,
      ]
      expect(statuses).toEqual([200, 429])
      await settled()
      const metrics = await scrape(api)
      expect(
        valueOf(metrics, 'imgapi_compress_duration_seconds_count', { status_class: '4xx', format: 'none' }),
      ).toBe(1)
      expect(
        valueOf(metrics, 'imgapi_compress_duration_seconds_count', { status_class: '2xx', format: 'png' }),
      ).toBe(1)
    } finally {
      await api.stop()
    }
  })
})

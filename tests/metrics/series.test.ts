import { describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { ERROR_CODES } from '../../src/errors/catalogue.ts'
import { OUTPUT_FORMATS } from '../../src/formats/format-table.ts'
import { fixedCodecMonitor } from '../../src/image/self-test.ts'
import { parseMetrics, samples, type Exposition } from '../helpers/prometheus.ts'

async function scrapeFresh(overrides: Parameters<typeof createContext>[1] = {}) {
  const config = configWith({ logLevel: 'silent' })
  const context = createContext(config, overrides)
  const app = createApp(config, context)
  const scrape = async (): Promise<Exposition> =>
    parseMetrics(await (await app.handle(new Request('http://localhost/metrics'))).text())
  return { context, scrape }
}

/** The one series with exactly these labels; fails when it is absent (valueOf would say 0). */
function series(metrics: Exposition, name: string, labels: Record<string, string> = {}) {
  const found = samples(metrics, name, labels).filter(
    (sample) =>
      Object.keys(sample.labels).filter((key) => key !== 'le').length === Object.keys(labels).length,
  )
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(1)
  return found[0]!
}

describe('a server that has answered nothing yet', () => {
  test('exports every known series at 0: error codes, formats, status classes, limits, API statuses', async () => {
    const { scrape } = await scrapeFresh()
    const metrics = await scrape()
    for (const code of ERROR_CODES)
      expect(series(metrics, 'imgapi_rejected_requests_total', { code }).value).toBe(0)
    for (const format of OUTPUT_FORMATS) {
      const ok = { status_class: '2xx', format }
      expect(series(metrics, 'imgapi_compress_duration_seconds_count', ok).value).toBe(0)
      expect(series(metrics, 'imgapi_compress_processing_seconds_count', ok).value).toBe(0)
      expect(series(metrics, 'imgapi_compress_output_bytes_total', { format }).value).toBe(0)
      expect(series(metrics, 'imgapi_compress_ratio_count', { format }).value).toBe(0)
    }
    for (const format of ['jpeg', 'svg']) {
      expect(series(metrics, 'imgapi_compress_input_bytes_total', { format }).value).toBe(0)
    }
    for (const status_class of ['4xx', '5xx']) {
      const failed = { status_class, format: 'none' }
      expect(series(metrics, 'imgapi_compress_duration_seconds_count', failed).value).toBe(0)
      expect(series(metrics, 'imgapi_compress_queue_wait_seconds_count', { status_class }).value).toBe(0)
    }
    for (const limit of ['rate', 'client_jobs'])
      expect(series(metrics, 'imgapi_rate_limited_requests_total', { limit }).value).toBe(0)
    for (const status of ['200', '400', '413', '415', '422', '429', '500', '503']) {
      const labels = { method: 'POST', route: '/api/compress', status }
      expect(series(metrics, 'imgapi_http_requests_total', labels).value).toBe(0)
    }
    expect(
      series(metrics, 'imgapi_http_requests_total', { method: 'GET', route: '/api/health', status: '503' })
        .value,
    ).toBe(0)
    expect(
      series(metrics, 'imgapi_http_requests_total', { method: 'GET', route: '/api/formats', status: '304' })
        .value,
    ).toBe(0)
  })
})

describe('codec health and draining', () => {
  test('imgapi_codec_healthy follows the last self-test per format; imgapi_draining turns 1 on SIGTERM', async () => {
    const formats = Object.fromEntries(OUTPUT_FORMATS.map((format) => [format, format !== 'avif']))
    const checkedAt = '2026-01-02T03:04:05.000Z'
    const { context, scrape } = await scrapeFresh({
      codecs: fixedCodecMonitor({ ok: false, checkedAt, formats }),
    })
    let metrics = await scrape()
    for (const format of OUTPUT_FORMATS)
      expect(series(metrics, 'imgapi_codec_healthy', { format }).value).toBe(format === 'avif' ? 0 : 1)
    expect(series(metrics, 'imgapi_codec_check_timestamp_seconds').value).toBe(Date.parse(checkedAt) / 1000)
    expect(series(metrics, 'imgapi_draining').value).toBe(0)
    context.lifecycle.startDraining()
    metrics = await scrape()
    expect(series(metrics, 'imgapi_draining').value).toBe(1)
  })

  test('before the first self-test has ended, no codec counts as healthy', async () => {
    const { scrape } = await scrapeFresh({
      codecs: { current: () => undefined, first: () => new Promise(() => {}), stop: () => {} },
    })
    const metrics = await scrape()
    for (const format of OUTPUT_FORMATS)
      expect(series(metrics, 'imgapi_codec_healthy', { format }).value).toBe(0)
    expect(series(metrics, 'imgapi_codec_check_timestamp_seconds').value).toBe(0)
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import pkg from '../../package.json'
import { createApp } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { fixedCodecMonitor } from '../../src/image/self-test.ts'
import { Lifecycle } from '../../src/lifecycle.ts'
import { BINARY, startApi, type Api } from '../helpers/api.ts'

describe('GET /api/health', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  test('reports ok, the package version, uptime, engine versions and the queue', async () => {
    const response = await api.fetch('/api/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const body = await response.json()
    expect(body.status).toBe('ok')
    expect(body.version).toBe(pkg.version)
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0)
    expect(body.engine.sharp).toMatch(/^\d+\.\d+\.\d+/)
    expect(body.engine.libvips).toMatch(/^\d+\.\d+\.\d+/)
    expect(body.queue).toMatchObject({ running: 0, waiting: 0, capacity: expect.any(Number) })
    expect(body.queue.memoryBytes.budget).toBeGreaterThan(0)
    expect(body.uploads).toEqual({ usedBytes: 0, budgetBytes: expect.any(Number) })
  })

  test('proves every output codec by encoding and decoding a tiny image', async () => {
    const body = await (await api.fetch('/api/health')).json()
    expect(body.codecs.ok).toBe(true)
    expect(Object.keys(body.codecs.formats).sort()).toEqual([
      'avif',
      'gif',
      'ico',
      'jpeg',
      'png',
      'tiff',
      'webp',
    ])
    expect(Object.values(body.codecs.formats).every(Boolean)).toBe(true)
  })

  test('reports the last codec check without running a new one for each probe', async () => {
    const first = await (await api.fetch('/api/health')).json()
    const second = await (await api.fetch('/api/health')).json()
    expect(second.codecs.checkedAt).toBe(first.codecs.checkedAt)
  })
})

// These two drive the process state directly, so they only run against the in-process app;
// tests/process.test.ts covers draining of a real process through SIGTERM.
describe.skipIf(Boolean(BINARY))('GET /api/health state changes', () => {
  const config = configWith({ logLevel: 'silent' })

  test('answers 503 "draining" once shutdown has begun', async () => {
    const lifecycle = new Lifecycle()
    const app = createApp(config, { lifecycle })
    lifecycle.startDraining()
    const response = await app.handle(new Request('http://localhost/api/health'))
    expect(response.status).toBe(503)
    expect((await response.json()).status).toBe('draining')
  })

  test('answers 503 "degraded" when a codec fails its check', async () => {
    const failing = fixedCodecMonitor({
      ok: false,
      checkedAt: new Date().toISOString(),
      formats: { jpeg: true, avif: false },
    })
    const app = createApp(config, { codecs: failing })
    const response = await app.handle(new Request('http://localhost/api/health'))
    expect(response.status).toBe(503)
    const body = await response.json()
    expect(body.status).toBe('degraded')
    expect(body.codecs.formats.avif).toBe(false)
  })
})

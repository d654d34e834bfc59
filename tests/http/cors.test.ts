import { describe, expect, test } from 'bun:test'
import { HEADER_NAMES } from '../../src/http/headers.ts'
import { startApi } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'

const ORIGIN = { origin: 'https://app.example' }

describe('CORS', () => {
  test('allows any origin by default and exposes every result header, on success and on error', async () => {
    const api = await startApi()
    const ok = await api.fetch('/api/compress?format=png', {
      ...rawBody(await fixture('webp-lossy-alpha.webp')),
      headers: ORIGIN,
    })
    expect(ok.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = ok.headers.get('access-control-expose-headers')!.split(', ')
    for (const name of [
      'x-original-size',
      'x-compressed-size',
      'x-compression-ratio',
      'x-result',
      'x-request-id',
      'content-disposition',
      'server-timing',
    ]) {
      expect(exposed).toContain(name)
    }
    // Any origin needs no Vary, so caches keep one copy of /api/formats.
    expect((await api.fetch('/api/formats', { headers: ORIGIN })).headers.get('vary')).not.toContain('Origin')
    const failed = await api.fetch('/api/nope', { headers: ORIGIN })
    expect(failed.headers.get('access-control-allow-origin')).toBe('*')
    await api.stop()
  })

  test('answers a preflight for an API path with the methods it accepts', async () => {
    const api = await startApi()
    const response = await api.fetch('/api/compress', {
      method: 'OPTIONS',
      headers: {
        ...ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toContain('content-type')
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0)
    expect((await api.fetch('/api/unknown', { method: 'OPTIONS', headers: ORIGIN })).status).toBe(404)
    await api.stop()
  })

  test('reflects only listed origins when configured with a list', async () => {
    const api = await startApi({ corsOrigins: 'https://app.example, https://admin.example' })
    const allowed = await api.fetch('/api/health', { headers: ORIGIN })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(allowed.headers.get('vary')).toContain('Origin')
    const other = await api.fetch('/api/health', { headers: { origin: 'https://evil.example' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    await api.stop()
  })

  test('sends no CORS headers when disabled', async () => {
    const api = await startApi({ corsOrigins: 'none' })
    const response = await api.fetch('/api/health', { headers: ORIGIN })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    await api.stop()
  })

  test("with a list of origins, keeps Vary: Origin next to each route's own Vary, so shared caches cannot mix origins", async () => {
    const api = await startApi({ corsOrigins: 'https://app.example' })
    const varyOf = (response: Response) =>
      (response.headers.get('vary') ?? '')
        .split(',')
        .map((v) => v.trim())
        .sort()
    const formats = await api.fetch('/api/formats', { headers: ORIGIN })
    expect(formats.headers.get('cache-control')).toContain('public')
    expect(varyOf(formats)).toEqual(['Accept-Encoding', 'Origin'])
    const compressed = await api.fetch('/api/compress?format=png', {
      ...rawBody(await fixture('webp-lossy-alpha.webp')),
      headers: ORIGIN,
    })
    expect(varyOf(compressed)).toEqual(['Accept', 'Origin'])
    const notModified = await api.fetch('/api/formats', {
      headers: { ...ORIGIN, 'if-none-match': formats.headers.get('etag')! },
    })
    expect(notModified.status).toBe(304)
    expect(varyOf(notModified)).toEqual(['Accept-Encoding', 'Origin'])
    await api.stop()
  })

  test('exposes exactly the documented response headers', async () => {
    const api = await startApi()
    const exposed = (await api.fetch('/api/health', { headers: ORIGIN })).headers
      .get('access-control-expose-headers')!
      .split(', ')
    expect(exposed.sort()).toEqual(
      [...HEADER_NAMES.map((name) => name.toLowerCase()), 'content-length'].sort(),
    )
    await api.stop()
  })
})

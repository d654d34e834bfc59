import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'

/** Every route that serves an ETag; each must honour If-None-Match as RFC 9110 section 13.1.2 says. */
async function validatedPaths(api: Api): Promise<string[]> {
  const page = await (await api.fetch('/docs/reference')).text()
  const assets = [...new Set(page.match(/\/docs\/assets\/[^"]+/g))]
  expect(assets.length).toBeGreaterThanOrEqual(2)
  return ['/api/formats', '/docs/', '/docs/reference', '/docs/examples', ...assets]
}

describe('If-None-Match wherever an ETag is served', () => {
  let api: Api
  let paths: string[]
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    paths = await validatedPaths(api)
  })
  afterAll(() => api.stop())

  const get = (path: string, ifNoneMatch?: string, encoding = 'br') =>
    api.fetch(path, {
      headers: { 'accept-encoding': encoding, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
    })

  test('"*" gets 304 with no body, the ETag and the caching headers of the 200', async () => {
    for (const path of paths) {
      const full = await get(path)
      expect([path, full.status]).toEqual([path, 200])
      const etag = full.headers.get('etag')
      expect(etag, path).toMatch(/^"[0-9a-f]+"$/)
      const unchanged = await get(path, '*')
      expect([path, unchanged.status, await unchanged.text()]).toEqual([path, 304, ''])
      expect(unchanged.headers.get('etag')).toBe(etag)
      expect(unchanged.headers.get('cache-control')).toBe(full.headers.get('cache-control'))
      expect(unchanged.headers.get('vary')).toBe(full.headers.get('vary'))
    }
  })

  test('its own ETag, weak or in a list, gets 304; another one gets the representation', async () => {
    for (const path of paths) {
      const etag = (await get(path)).headers.get('etag')!
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`])
        expect([path, header, (await get(path, header)).status]).toEqual([path, header, 304])
      const other = await get(path, '"not-this-one"')
      expect([path, other.status]).toEqual([path, 200])
      expect((await other.arrayBuffer()).byteLength).toBeGreaterThan(0)
    }
  })

  test('each encoding of a page is its own representation, with its own ETag', async () => {
    const brotli = (await get('/docs/reference', undefined, 'br')).headers.get('etag')!
    const identity = await get('/docs/reference', undefined, 'identity')
    expect(identity.headers.get('etag')).not.toBe(brotli)
    expect((await get('/docs/reference', brotli, 'identity')).status).toBe(200)
  })
})

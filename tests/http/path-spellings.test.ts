import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { newKey } from '../../src/access/new-key.ts'
import type { Config } from '../../src/config.ts'
import { metaOf } from '../../src/http/request-meta.ts'
import { requireScreened } from '../../src/http/screened.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts'

/**
 * No spelling of a guarded path may reach its handler without the checks the canonical path
 * gets. The router used to answer `/api/compress/` as `/api/compress` while the key check and
 * the rate limiter compared the path exactly, so a trailing slash skipped both. Each spelling
 * is sent as is on a socket (fetch would tidy some of them up before they left).
 */
function spellingsOf(path: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]+)(.*)$/.exec(path) ?? []
  const inner = rest ? `/${first}/${rest.slice(1)}` : `/${first}`
  return [
    `${path}/`,
    `${path}//`,
    `/${path}`,
    rest ? `/${first}/${rest}` : `${path}/.`,
    rest ? `/${first}/.${rest}` : `/.${path}`,
    `/x/..${path}`,
    `${path}/.`,
    `${path}/./`,
    `${path}\\`,
    path.toUpperCase(),
    `/${first.toUpperCase()}${rest}`,
    `${path};x`,
    `${path};`,
    `${path}/;x`,
    rest ? `/${first}%2F${rest.slice(1)}` : `${path}%2F`,
    rest ? `/${first}%2f${rest.slice(1)}` : `/%2F${first}`,
    `${path}%2F`,
    `${path}%20`,
    `${path}%00`,
    `${path}.`,
    `${inner.slice(0, -1)}%${inner.charCodeAt(inner.length - 1).toString(16)}`,
    `${path}?`,
    `${path}/?x=1`,
  ]
}

const GUARDED = [
  { method: 'POST', path: '/api/compress?format=png' },
  { method: 'GET', path: '/api/formats' },
  { method: 'GET', path: '/metrics' },
] as const

interface Sent {
  readonly target: string
  readonly response: RawResponse
}

async function send(api: Api, method: string, target: string, body: Uint8Array, key?: string) {
  const auth = key ? `Authorization: Bearer ${key}\r\n` : ''
  const head = `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`
  const { responses } = await rawRequest(api.url, Buffer.concat([Buffer.from(head), body]))
  expect(responses[0], `${method} ${target}`).toBeDefined()
  return responses[0]!
}

/** Every spelling of every guarded route, each sent once. */
async function walk(api: Api, png: Uint8Array): Promise<(Sent & { method: string; canonical: string })[]> {
  const sent: (Sent & { method: string; canonical: string })[] = []
  for (const { method, path } of GUARDED) {
    const [pathOnly = '', query] = path.split('?')
    for (const spelling of spellingsOf(pathOnly)) {
      const target = query ? `${spelling}${spelling.includes('?') ? '&' : '?'}${query}` : spelling
      const response = await send(api, method, target, method === 'POST' ? png : new Uint8Array())
      sent.push({ method, target, response, canonical: pathOnly })
    }
  }
  return sent
}

/** A spelling either is not a route (404), leads to the canonical path (308), or met the checks. */
function expectChecked(sent: (Sent & { method: string; canonical: string })[], checked: number) {
  for (const { method, target, response, canonical } of sent) {
    const where = `${method} ${target} -> ${response.status}`
    if (response.status === 308) {
      expect(method, where).toBe('GET')
      expect(response.headers.get('location')?.split('?')[0], where).toBe(canonical)
    } else {
      expect([404, checked], where).toContain(response.status)
    }
  }
}

describe('every spelling of a guarded path', () => {
  let png: Uint8Array
  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
  })

  describe('with API keys, the formats key rule and the metrics key on', () => {
    let api: Api
    const key = newKey()
    beforeAll(async () => {
      const config: Partial<Config> = {
        apiKeys: key,
        formatsRequireKey: true,
        metricsKey: newKey(),
        rateLimit: 2,
        rateWindowMs: 3_600_000,
      }
      api = await startApi(config, { socket: true })
    })
    afterAll(() => api.stop())

    test('is refused without a key (401), is not a route (404), or redirects to the canonical path', async () => {
      const sent = await walk(api, png)
      expectChecked(sent, 401)
      // The walk would prove nothing if no spelling reached a handler: the dot segments and an
      // empty query, which the server tidies away, are the canonical path and meet the check.
      expect(sent.filter((s) => s.response.status === 401).length).toBeGreaterThanOrEqual(3 * 3)
    })

    test('the canonical paths still answer with the key', async () => {
      const ok = await send(api, 'GET', '/api/formats', new Uint8Array(), key)
      expect(ok.status).toBe(200)
      const compressed = await send(api, 'POST', '/api/compress?format=png', png, key)
      expect(compressed.status).toBe(200)
    })
  })

  describe('with keys off and a rate limit of 2 per hour', () => {
    let api: Api
    beforeAll(async () => {
      api = await startApi({ rateLimit: 2, rateWindowMs: 3_600_000 }, { socket: true })
    })
    afterAll(() => api.stop())

    test('no spelling of compress is answered once the limit is spent', async () => {
      for (let i = 0; i < 2; i++)
        expect((await send(api, 'POST', '/api/compress?format=png', png)).status).toBe(200)
      const sent = (await walk(api, png)).filter((s) => s.method === 'POST')
      expectChecked(sent, 429)
      expect(sent.filter((s) => s.response.status === 429).length).toBeGreaterThanOrEqual(3)
    })

    test('formats and metrics, open here, answer on their canonical path and redirect a trailing slash to it', async () => {
      for (const path of ['/api/formats', '/metrics']) {
        expect((await send(api, 'GET', path, new Uint8Array())).status).toBe(200)
        const slash = await send(api, 'GET', `${path}/`, new Uint8Array())
        expect([slash.status, slash.headers.get('location')]).toEqual([308, path])
      }
    })
  })

  test('pages keep answering on the spelling with or without the slash, by one redirect', async () => {
    const api = await startApi({}, { socket: true })
    try {
      for (const [asked, location] of [
        ['/docs', '/docs/'],
        ['/docs/tester/', '/docs/tester'],
        ['/tools/compress/?lang=fr', '/tools/compress?lang=fr'],
      ] as const) {
        const response = await send(api, 'GET', asked, new Uint8Array())
        expect([asked, response.status, response.headers.get('location')]).toEqual([asked, 308, location])
      }
      expect((await send(api, 'POST', '/api/compress/?format=png', png)).status).toBe(404)
    } finally {
      await api.stop()
    }
  })
})

describe('a guarded handler reached without its checks', () => {
  test('refuses the request as not found rather than serving it unchecked', () => {
    const unscreened = new Request('http://localhost/api/compress')
    expect(() => requireScreened(unscreened, 'compress')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    )
    const screened = new Request('http://localhost/api/compress')
    metaOf(screened).screened = 'formats'
    expect(() => requireScreened(screened, 'compress')).toThrow()
    metaOf(screened).screened = 'compress'
    expect(() => requireScreened(screened, 'compress')).not.toThrow()
  })
})

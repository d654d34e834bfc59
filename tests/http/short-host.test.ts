import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { newKey } from '../../src/access/new-key.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawRequest } from '../helpers/raw-http.ts'

/**
 * The router and the access checks must see the same path whatever the Host. Elysia used to
 * look for the path from the URL's 11th character, so with a Host of 1-3 characters
 * `/xx/api/compress` reached compress while the checks, reading the real path, skipped it.
 */
const HOSTS = ['a', 'ab', 'abc', 'abcd', 'a:1', '1.2']
const PREFIXES = ['', '/xx', '/x', '/xyz']

describe('short Host headers', () => {
  let api: Api
  let png: Uint8Array
  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
    api = await startApi(
      {
        apiKeys: newKey(),
        formatsRequireKey: true,
        metricsKey: newKey(),
        rateLimit: 2,
        rateWindowMs: 3_600_000,
      },
      { socket: true },
    )
  })
  afterAll(() => api.stop())

  const send = async (host: string, head: string, body: Uint8Array = new Uint8Array()) => {
    const request = Buffer.concat([
      Buffer.from(
        `${head} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
      body,
    ])
    const { responses } = await rawRequest(api.url, request)
    expect(responses[0], `${head} with Host ${host}`).toBeDefined()
    return responses[0]!
  }

  for (const host of HOSTS) {
    test(`Host ${JSON.stringify(host)}: compress, formats and metrics still ask for their keys, under any prefix`, async () => {
      for (const prefix of PREFIXES) {
        for (let i = 0; i < 3; i++) {
          const compress = await send(host, `POST ${prefix}/api/compress?format=png`, png)
          expect(compress.status, `POST ${prefix}/api/compress`).toBe(prefix ? 404 : 401)
        }
        expect((await send(host, `GET ${prefix}/api/formats`)).status).toBe(prefix ? 404 : 401)
        expect((await send(host, `GET ${prefix}/metrics`)).status).toBe(prefix ? 404 : 401)
      }
    })

    test(`Host ${JSON.stringify(host)}: the docs pages keep their security headers, and no prefix serves them`, async () => {
      const page = await send(host, 'GET /docs/tester')
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(page.headers.get('x-frame-options')).toBe('DENY')
      for (const prefix of PREFIXES.filter(Boolean)) {
        expect((await send(host, `GET ${prefix}/docs/tester`)).status).toBe(404)
      }
    })
  }

  test('a Host that carries a path, a query or a fragment is refused before routing', async () => {
    for (const host of ['a/b', 'a?', 'a#', 'ab?x', 'a@b']) {
      const response = await send(host, 'POST /api/compress?format=png', png)
      expect([host, response.status]).toEqual([host, 400])
    }
  })
})

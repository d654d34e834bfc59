import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawRequest } from '../helpers/raw-http.ts'

const get = (path: string, close = false) =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${close ? 'Connection: close\r\n' : ''}\r\n`

describe('pipelined requests', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('health then formats, pipelined on one connection, both answered in order', async () => {
    const { responses } = await rawRequest(api.url, get('/api/health') + get('/api/formats', true), 2000)
    expect(responses.map((r) => r.status)).toEqual([200, 200])
    expect(JSON.parse(responses[0]!.body).status).toBe('ok')
    expect(JSON.parse(responses[1]!.body).formats.length).toBeGreaterThan(5)
  })

  // Each GET route answers without waiting on anything, so what is pipelined behind it is answered.
  test('a request pipelined behind any GET route (docs pages and assets, the reference, metrics) is answered', async () => {
    const page = await (await api.fetch('/docs/')).text()
    const [asset] = page.match(/\/docs\/assets\/[^"]+/) ?? []
    const paths = [
      '/docs/',
      '/docs/reference',
      asset!,
      '/swagger/json',
      '/metrics',
      '/livez',
      '/favicon.ico',
      '/nope',
    ]
    for (const path of paths) {
      const { responses } = await rawRequest(api.url, get(path) + get('/livez', true), 3000)
      expect([path, responses.length, responses.at(-1)?.body]).toEqual([path, 2, 'ok\n'])
    }
  })
})

/**
 * Why the GET routes answer synchronously: Bun 1.4.5 closes a connection with zero bytes written
 * when a request is pipelined behind a handler that is still pending (oven-sh/bun#38128, the open
 * fix). A compression cannot be synchronous, so a request pipelined behind one loses both
 * answers; the README says so. These pin both facts to the Bun version: when they fail after an
 * upgrade, the bug is fixed, and the README's paragraph can go.
 */
describe.if(Bun.version === '1.4.5')('Bun 1.4.5 pipelining behind an async handler', () => {
  test('still loses both responses (upstream issue), which is why health never awaits', async () => {
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      development: false,
      async fetch() {
        await Bun.sleep(20)
        return new Response('hello')
      },
    })
    const { text } = await rawRequest(`http://127.0.0.1:${server.port}`, get('/') + get('/', true), 1000)
    await server.stop(true)
    expect(text.length).toBe(0)
  })

  test('a compression with a request pipelined behind it: neither is answered, the connection is closed', async () => {
    const api = await startApi({}, { socket: true })
    try {
      const png = await fixture('png-tiny-1x1-prophoto-icc.png')
      const head = `POST /api/compress HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\nContent-Length: ${png.length}\r\n\r\n`
      const exchange = await rawRequest(
        api.url,
        Buffer.concat([Buffer.from(head), png, Buffer.from(get('/api/health', true))]),
        3000,
      )
      expect([exchange.text.length, exchange.closedByServer]).toEqual([0, true])
      // Sent one after the other's answer, the same two are both answered.
      expect((await api.fetch('/api/compress', { method: 'POST', body: png })).status).toBe(200)
    } finally {
      await api.stop()
    }
  })
})

/**
 * Bun closes the connection on a method it does not know (`FOO`, or `get` in lower case) before
 * any of imgapi's code runs, so there is no 405 or 501 to send (oven-sh/bun#6556). Pinned like
 * the above: the README documents it.
 */
describe.if(Bun.version === '1.4.5')('Bun 1.4.5 and unknown methods', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('FOO and get are dropped with no answer; the server keeps serving', async () => {
    for (const method of ['FOO', 'get']) {
      const exchange = await rawRequest(
        api.url,
        `${method} /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n`,
        2000,
      )
      expect([method, exchange.text, exchange.closedByServer]).toEqual([method, '', true])
    }
    expect((await api.fetch('/api/health')).status).toBe(200)
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer, type AddressInfo } from 'node:net'
import sharp from 'sharp'
import type { Config } from '../../src/config.ts'
import { startApi, type Api, type StartOptions } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

/*
 * Images named by url, fetched from origins these tests serve on loopback: real sockets, the
 * guard judging at the place that connects. The origin counts every request it gets, so a
 * refusal can be shown to have happened before any connection.
 */

interface Origin {
  readonly url: string
  readonly port: number
  hits: number
  stop(): void
}

/** What each path of the test origin does. */
function serveOrigin(photo: Uint8Array, port = 0): Origin {
  const state = { hits: 0 }
  const server = Bun.serve({
    port,
    hostname: '127.0.0.1',
    idleTimeout: 60,
    async fetch(request) {
      state.hits++
      const { pathname } = new URL(request.url)
      const redirect = /^\/redirect\/(\d+)$/.exec(pathname)
      if (redirect) {
        const left = Number(redirect[1])
        return new Response(null, {
          status: 302,
          headers: { location: left > 1 ? `/redirect/${left - 1}` : '/photo.jpg' },
        })
      }
      switch (pathname) {
        case '/photo.jpg':
          return new Response(photo as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'image/jpeg' } })
        case '/chunked-big':
          // No Content-Length, and more than the upload limit: the read must stop at the limit.
          return new Response(
            new ReadableStream({
              async pull(controller) {
                controller.enqueue(new Uint8Array(64 * 1024))
                await Bun.sleep(1)
              },
            }),
          )
        case '/trickle':
          return new Response(
            new ReadableStream({
              async pull(controller) {
                await Bun.sleep(400)
                controller.enqueue(new Uint8Array([0xff]))
              },
            }),
          )
        case '/hold':
          await Bun.sleep(4000)
          return new Response(photo as Uint8Array<ArrayBuffer>)
        case '/not-found':
          return new Response('no', { status: 404 })
        case '/broken':
          return new Response('oops', { status: 500 })
        case '/text-as-png':
          return new Response('this is text, whatever the header says', {
            headers: { 'content-type': 'image/png' },
          })
        case '/to-metadata':
          return new Response(null, {
            status: 302,
            headers: { location: 'http://169.254.169.254/latest/meta-data/' },
          })
        case '/to-private':
          return new Response(null, { status: 301, headers: { location: 'http://10.0.0.1/photo.jpg' } })
        default:
          return new Response('?', { status: 400 })
      }
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    get hits() {
      return state.hits
    },
    set hits(value) {
      state.hits = value
    },
    stop: () => server.stop(true),
  }
}

/**
 * An origin that declares 50 MiB and sends four bytes, then holds the connection: a fetch read
 * to the end would wait for ever. Raw TCP, since Bun.serve writes the true length.
 */
function lyingOrigin() {
  const server = createServer((socket) => {
    socket.on('error', () => {})
    socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 52428800\r\n\r\ntiny'))
  })
  server.listen(0, '127.0.0.1')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => server.close() }
}

const byUrl = (api: Api, url: string, query = '') =>
  api.fetch(`/api/compress?url=${encodeURIComponent(url)}${query}`, { method: 'POST' })

const json = (api: Api, body: unknown) =>
  api.fetch('/api/compress', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

let photo: Uint8Array
let origin: Origin
beforeAll(async () => {
  photo = await fixture('photo-exif-orientation-6.jpg')
  origin = serveOrigin(photo)
})
afterAll(() => origin.stop())

async function withApi(config: Partial<Config>, options: StartOptions, run: (api: Api) => Promise<void>) {
  const api = await startApi(config, { socket: true, ...options })
  try {
    await run(api)
  } finally {
    await api.stop()
  }
}

describe('an image named by url, from an origin the allow-list lets in', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(
      { urlAllow: '127.0.0.1/32', maxUploadBytes: 1024 * 1024, urlTimeoutMs: 1500 },
      { socket: true },
    )
  })
  afterAll(() => api.stop())

  test('in the query, a form field or a JSON body: the same bytes as uploading it, and where it came from', async () => {
    const upload = await api.fetch('/api/compress?format=webp&width=300', rawBody(photo))
    const uploaded = new Uint8Array(await upload.arrayBuffer())
    const form = new FormData()
    form.append('url', `${origin.url}/photo.jpg?signature=secret`)
    form.append('format', 'webp')
    form.append('width', '300')
    for (const response of [
      await byUrl(api, `${origin.url}/photo.jpg?signature=secret`, '&format=webp&width=300'),
      await api.fetch('/api/compress', { method: 'POST', body: form }),
      await json(api, { url: `${origin.url}/photo.jpg?signature=secret`, format: 'webp', width: 300 }),
    ]) {
      expect(response.status).toBe(200)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(uploaded)
      // The query (a presigned URL's signature) never comes back.
      expect(response.headers.get('x-source-url')).toBe(`${origin.url}/photo.jpg`)
      expect(response.headers.get('server-timing')).toMatch(/fetch;dur=\d/)
      expect(response.headers.get('content-disposition')).toContain('photo.webp')
      for (const [name, value] of upload.headers)
        if (!['x-request-id', 'server-timing', 'date', 'x-source-url', 'content-disposition'].includes(name))
          expect([name, response.headers.get(name)]).toEqual([name, value])
    }
  })

  test('the JSON envelope names the source too', async () => {
    const response = await api.fetch('/api/compress', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url: `${origin.url}/photo.jpg`, format: 'png' }),
    })
    const envelope = await response.json()
    expect(envelope.sourceUrl).toBe(`${origin.url}/photo.jpg`)
    expect(envelope.data).toStartWith('data:image/png;base64,')
  })

  test('follows up to 5 redirects, each judged again; 6 is 502', async () => {
    const followed = await byUrl(api, `${origin.url}/redirect/5`)
    expect(followed.status).toBe(200)
    expect(followed.headers.get('x-source-url')).toBe(`${origin.url}/photo.jpg`)
    const tooMany = await problemOf(await byUrl(api, `${origin.url}/redirect/6`))
    expect([tooMany.httpStatus, tooMany.code]).toEqual([502, 'SOURCE_FAILED'])
  })

  test('a redirect to the metadata service or a private address is refused, naming the rule', async () => {
    for (const path of ['/to-metadata', '/to-private']) {
      const problem = await problemOf(await byUrl(api, `${origin.url}${path}`))
      expect([path, problem.httpStatus, problem.code]).toEqual([path, 400, 'URL_NOT_ALLOWED'])
      expect(problem.detail).toContain('not on the public internet')
      expect(problem.detail).not.toMatch(/127\.0\.0\.1:\d+\/to-/)
    }
  })

  test('an origin that answers 404 or 500 is 502 SOURCE_FAILED with its status', async () => {
    for (const [path, status] of [
      ['/not-found', 404],
      ['/broken', 500],
    ] as const) {
      const response = await byUrl(api, `${origin.url}${path}`)
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code, problem.originStatus]).toEqual([502, 'SOURCE_FAILED', status])
    }
  })

  test('past the upload limit: a declared length is refused before reading, a chunked body stops at the limit', async () => {
    const liar = lyingOrigin()
    const declared = await problemOf(await byUrl(api, `${liar.url}/declared-big`))
    expect([declared.httpStatus, declared.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    expect(declared.detail).toContain('declares 52428800 bytes')
    const chunked = await problemOf(await byUrl(api, `${origin.url}/chunked-big`))
    expect([chunked.httpStatus, chunked.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    expect(chunked.detail).toContain('more than 1048576 bytes')
    liar.stop()
  })

  test('a body that trickles past IMGAPI_URL_TIMEOUT_MS is 504 SOURCE_TIMEOUT', async () => {
    const problem = await problemOf(await byUrl(api, `${origin.url}/trickle`))
    expect([problem.httpStatus, problem.code]).toEqual([504, 'SOURCE_TIMEOUT'])
  })

  test("the type comes from the bytes, not the origin's Content-Type: text served as image/png is 415", async () => {
    const problem = await problemOf(await byUrl(api, `${origin.url}/text-as-png`))
    expect([problem.httpStatus, problem.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
  })

  test('exactly one source: an image in the body and a url together are 400', async () => {
    const problem = await problemOf(
      await api.fetch(`/api/compress?url=${encodeURIComponent(`${origin.url}/photo.jpg`)}`, rawBody(photo)),
    )
    expect([problem.httpStatus, problem.code, problem.errors![0]!.name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'url',
    ])
  })
})

describe('the guard, with nothing allowed but the public internet', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('refuses every spelling of loopback, private, link-local and metadata addresses before connecting', async () => {
    const port = origin.port
    const urls = [
      `http://127.0.0.1:${port}/photo.jpg`,
      `http://localhost:${port}/photo.jpg`,
      `http://LOCALHOST.:${port}/photo.jpg`,
      `http://2130706433:${port}/photo.jpg`,
      `http://0x7f.1:${port}/photo.jpg`,
      `http://0177.0.0.1:${port}/photo.jpg`,
      `http://127.1:${port}/photo.jpg`,
      `http://0.0.0.0:${port}/photo.jpg`,
      `http://[::ffff:127.0.0.1]:${port}/photo.jpg`,
      `http://[::ffff:7f00:1]:${port}/photo.jpg`,
      `http://[::1]:${port}/photo.jpg`,
      `http://[64:ff9b::7f00:1]:${port}/photo.jpg`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.1/photo.jpg',
      'http://192.168.1.1/photo.jpg',
      'http://100.64.0.1/photo.jpg',
    ]
    origin.hits = 0
    for (const url of urls) {
      const problem = await problemOf(await byUrl(api, url))
      expect([url, problem.httpStatus, problem.code]).toEqual([url, 400, 'URL_NOT_ALLOWED'])
    }
    expect(origin.hits).toBe(0)
  })

  test('refuses other schemes, user names, and ports other than 80 and 443 for public hosts', async () => {
    origin.hits = 0
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/photo.jpg',
      'gopher://127.0.0.1:70/',
      `http://trusted@127.0.0.1:${origin.port}/photo.jpg`,
      'https://user:secret@example.com/photo.jpg',
      'http://93.184.215.14:8080/photo.jpg',
    ]) {
      const problem = await problemOf(await byUrl(api, url))
      expect([url, problem.httpStatus, problem.code]).toEqual([url, 400, 'URL_NOT_ALLOWED'])
      expect(problem.detail).not.toContain('secret')
    }
    expect(origin.hits).toBe(0)
  })

  test('a url that is not a URL is 400 INVALID_PARAMETER naming url', async () => {
    const problem = await problemOf(await byUrl(api, 'not a url'))
    expect([problem.httpStatus, problem.code, problem.errors![0]!.name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'url',
    ])
  })
})

describe('the guard and the resolver', () => {
  test('a name that resolves to 127.0.0.1 is refused, and nothing is connected to', async () => {
    const resolve = async () => ['127.0.0.1']
    await withApi({}, { resolve }, async (api) => {
      origin.hits = 0
      const problem = await problemOf(
        await byUrl(api, `http://images.attacker.test:${origin.port}/photo.jpg`),
      )
      expect([problem.httpStatus, problem.code]).toEqual([400, 'URL_NOT_ALLOWED'])
      expect(problem.detail).not.toContain('127.0.0.1')
      expect(origin.hits).toBe(0)
    })
  })

  test('a name resolved once: public on the first lookup and 127.0.0.1 after is never connected to loopback', async () => {
    // The rebinding attack: the guard checks one answer and the connection uses another.
    let lookups = 0
    const resolve = async () => (lookups++ === 0 ? ['93.184.215.14'] : ['127.0.0.1'])
    // Port 80 on loopback, where a second lookup's answer would connect; only root may bind it.
    let port80: Origin | undefined
    try {
      port80 = serveOrigin(photo, 80)
    } catch {
      console.warn('[skipped] the rebinding test: port 80 cannot be bound by this user')
      return
    }
    try {
      await withApi({ urlTimeoutMs: 1000 }, { resolve }, async (api) => {
        const response = await byUrl(api, 'http://rebind.attacker.test/photo.jpg')
        const problem = await problemOf(response)
        // The public address answered nothing (no network here): the fetch failed, over there.
        expect(['SOURCE_FAILED', 'SOURCE_TIMEOUT']).toContain(problem.code)
        expect(lookups).toBe(1)
        expect(port80!.hits).toBe(0)
      })
    } finally {
      port80.stop()
    }
  })

  test('with IMGAPI_URL_SOURCES=off every url is 400; with allowlist only what the list names', async () => {
    await withApi({ urlSources: 'off', urlAllow: '127.0.0.1/32' }, {}, async (api) => {
      const problem = await problemOf(await byUrl(api, `${origin.url}/photo.jpg`))
      expect([problem.httpStatus, problem.code]).toEqual([400, 'URL_NOT_ALLOWED'])
      expect(problem.detail).toContain('IMGAPI_URL_SOURCES=off')
    })
    await withApi(
      { urlSources: 'allowlist', urlAllow: 'images.internal' },
      { resolve: async () => ['127.0.0.1'] },
      async (api) => {
        expect((await byUrl(api, `http://images.internal:${origin.port}/photo.jpg`)).status).toBe(200)
        const problem = await problemOf(await byUrl(api, 'http://example.com/photo.jpg'))
        expect([problem.httpStatus, problem.code]).toEqual([400, 'URL_NOT_ALLOWED'])
      },
    )
  })
})

describe('a JSON body', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ urlAllow: '127.0.0.1/32' }, { socket: true })
  })
  afterAll(() => api.stop())

  test('takes the options as JSON values of their types, words in any case; null and the wrong type are 400', async () => {
    const ok = await json(api, { url: `${origin.url}/photo.jpg`, format: 'PNG', width: 120, lossless: true })
    expect(ok.status).toBe(200)
    const meta = await sharp(new Uint8Array(await ok.arrayBuffer())).metadata()
    expect([meta.format, meta.width]).toEqual(['png', 120])
    const problem = await problemOf(
      await json(api, { url: `${origin.url}/photo.jpg`, width: '120', quality: null }),
    )
    expect(problem.code).toBe('INVALID_PARAMETER')
    expect(problem.errors!.map((e: { name: string }) => e.name).sort()).toEqual(['quality', 'width'])
  })

  test('a name in the query and the body with different values is 400; the same value is one value', async () => {
    const differ = await problemOf(
      await api.fetch('/api/compress?width=100', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${origin.url}/photo.jpg`, width: 200 }),
      }),
    )
    expect(differ.errors![0]).toEqual({ name: 'width', reason: expect.stringContaining('in the JSON body') })
    const same = await api.fetch('/api/compress?width=100', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${origin.url}/photo.jpg`, width: 100 }),
    })
    expect(same.status).toBe(200)
  })

  test('is read by its own reader: over 64 KiB is 413, not JSON or not an object is 400, no url is MISSING_FILE', async () => {
    const big = await problemOf(await json(api, { url: `${origin.url}/photo.jpg`, pad: 'x'.repeat(70_000) }))
    expect([big.httpStatus, big.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    const broken = await api.fetch('/api/compress', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"url":',
    })
    expect((await problemOf(broken)).code).toBe('MALFORMED_REQUEST')
    expect((await problemOf(await json(api, ['not', 'an', 'object']))).code).toBe('MALFORMED_REQUEST')
    const none = await problemOf(await json(api, { format: 'webp' }))
    expect([none.httpStatus, none.code]).toEqual([400, 'MISSING_FILE'])
  })

  test('an image sent as application/json is no longer taken as the image', async () => {
    const tiny = await fixture('png-tiny-1x1-prophoto-icc.png')
    const problem = await problemOf(
      await api.fetch('/api/compress', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: tiny as Uint8Array<ArrayBuffer>,
      }),
    )
    expect([problem.httpStatus, problem.code]).toEqual([400, 'MALFORMED_REQUEST'])
  })

  test('an empty body with ?url= is the url, not MISSING_FILE; a form field takes a url of up to 8 KiB', async () => {
    expect((await byUrl(api, `${origin.url}/photo.jpg`)).status).toBe(200)
    const long = `${origin.url}/photo.jpg?sig=${'a'.repeat(7000)}`
    const form = new FormData()
    form.append('url', long)
    expect((await api.fetch('/api/compress', { method: 'POST', body: form })).status).toBe(200)
    const tooLong = new FormData()
    tooLong.append('url', `${long}${'a'.repeat(2000)}`)
    const problem = await problemOf(await api.fetch('/api/compress', { method: 'POST', body: tooLong }))
    expect([problem.httpStatus, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
  })
})

describe('hostile origins', () => {
  test('health stays answerable while 50 slow origins hold fetches open, and the server serves on', async () => {
    await withApi(
      { urlAllow: '127.0.0.1/32', urlMaxFetches: 64, urlMaxFetchesPerHost: 64 },
      {},
      async (api) => {
        let settled = 0
        const held = Array.from({ length: 50 }, () =>
          byUrl(api, `${origin.url}/hold`, '&format=png&width=50').then((r) => {
            settled++
            return r.status
          }),
        )
        await Bun.sleep(500)
        // Each origin holds its answer 4 s: health answers while the fetches are open (those past
        // the client's own cap of jobs in progress were refused at once, 429).
        const refusedAtOnce = settled
        const health = await api.fetch('/api/health')
        expect(health.status).toBe(200)
        expect(settled).toBe(refusedAtOnce)
        expect(50 - refusedAtOnce).toBeGreaterThanOrEqual(20)
        const statuses = await Promise.all(held)
        expect(statuses.every((status) => [200, 429, 503].includes(status))).toBe(true)
        expect(statuses.filter((status) => status === 200).length).toBe(50 - refusedAtOnce)
        expect((await api.fetch('/api/compress?format=png', rawBody(photo))).status).toBe(200)
      },
    )
  }, 60_000)

  test('past IMGAPI_URL_MAX_FETCHES_PER_HOST a fetch from that host is 503 OVERLOADED with Retry-After', async () => {
    await withApi({ urlAllow: '127.0.0.1/32', urlMaxFetchesPerHost: 2 }, {}, async (api) => {
      const held = [byUrl(api, `${origin.url}/hold`), byUrl(api, `${origin.url}/hold`)]
      await Bun.sleep(300)
      const refused = await byUrl(api, `${origin.url}/hold`)
      const problem = await problemOf(refused)
      expect([problem.httpStatus, problem.code]).toEqual([503, 'OVERLOADED'])
      expect(refused.headers.get('retry-after')).toBe('1')
      await Promise.all(held)
    })
  }, 30_000)
})

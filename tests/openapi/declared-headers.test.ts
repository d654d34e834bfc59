import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { HEADER_NAMES } from '../../src/http/headers.ts'
import { UploadBudget } from '../../src/http/upload-budget.ts'
import { BINARY, startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawExchange, rawRequest } from '../helpers/raw-http.ts'
import { rawBody } from '../helpers/requests.ts'
import { freePort } from '../helpers/services.ts'
import { MotoServer, requireMoto } from '../helpers/moto.ts'

/**
 * Every status each operation can answer, produced for real, and its headers compared with the
 * OpenAPI document of the server that sent it: a header the API documents (http/headers.ts) that
 * is sent must be declared for that status, and one declared required must be sent.
 */
type Operation = 'health' | 'formats' | 'compress'
const OPERATIONS: Record<Operation, readonly [path: string, method: string]> = {
  health: ['/api/health', 'get'],
  formats: ['/api/formats', 'get'],
  compress: ['/api/compress', 'post'],
}
const DOCUMENTED = new Set(HEADER_NAMES.map((name) => name.toLowerCase()))
const moto = requireMoto('declared headers of stored answers')
/**
 * A formats list cannot be made to fail; its 500 is the same problem answer as every other.
 * Without moto_server, no object can already exist: 409 STORE_EXISTS is not produced.
 */
const NOT_PRODUCED = ['formats 500', ...(moto ? [] : ['compress 409'])]

interface Seen {
  readonly what: string
  readonly operation: Operation
  readonly status: number
  readonly headers: ReadonlySet<string>
  readonly spec: Record<string, any>
}

const KEY = 'declared-headers-key-0123456789abcdef012'
const auth = { authorization: `Bearer ${KEY}` }
const seen: Seen[] = []
const specs: Record<string, any>[] = []
const stops: (() => Promise<unknown>)[] = []

async function serve(api: Api) {
  stops.push(() => api.stop())
  const spec = (await (await api.fetch('/swagger/json')).json()) as Record<string, any>
  specs.push(spec)
  const note = (what: string, operation: Operation, status: number, names: Iterable<string>) =>
    seen.push({
      what,
      operation,
      status,
      spec,
      headers: new Set([...names].map((name) => name.toLowerCase()).filter((name) => DOCUMENTED.has(name))),
    })
  return {
    /** Sends a request with fetch and notes its answer. */
    async fetch(what: string, operation: Operation, path: string, init?: RequestInit) {
      const response = await api.fetch(path, init)
      await response.arrayBuffer()
      note(what, operation, response.status, response.headers.keys())
      return response
    },
    /** For what fetch will not send: a bad Host, a body that stops. */
    async raw(
      what: string,
      operation: Operation,
      exchange: Promise<{ responses: { status: number; headers: ReadonlyMap<string, string> }[] }>,
    ) {
      const [response] = (await exchange).responses
      expect(response, what).toBeDefined()
      note(what, operation, response!.status, response!.headers.keys())
    },
  }
}

/** Holds the only worker with a job the test ends. */
function occupyWorker(api: Api) {
  let finish!: () => void
  const held = new Promise<void>((resolve) => (finish = resolve))
  const job = api.context!.queue.run(() => held, { timeoutMs: 120_000, costBytes: 0 })
  return () => (finish(), job)
}

describe.skipIf(Boolean(BINARY))('the headers the OpenAPI document declares, per status', () => {
  beforeAll(async () => {
    const png = await fixture('png-tiny-1x1-prophoto-icc.png')
    const big = { 'x-filler': 'f'.repeat(5000) }

    // Keys, a rate limit, small limits: most statuses of every operation.
    const a = await startApi(
      {
        apiKeys: KEY,
        rateLimit: 1000,
        rateWindowMs: 60_000,
        formatsRequireKey: true,
        maxUploadBytes: 2000,
        maxHeaderBytes: 4096,
        uploadTimeoutMs: 400,
        urlAllow: '127.0.0.1/32',
        urlTimeoutMs: 300,
      },
      { socket: true },
    )
    const sa = await serve(a)
    // An origin for the url statuses: one that fails, one too slow.
    const origin = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (request) => {
        if (request.url.endsWith('/slow')) await Bun.sleep(1000)
        return new Response('gone', { status: 404 })
      },
    })
    stops.push(async () => origin.stop(true))
    const fromUrl = (path: string) =>
      `/api/compress?url=${encodeURIComponent(`http://127.0.0.1:${origin.port}${path}`)}`
    const badHost = (path: string, method = 'GET') =>
      rawRequest(a.url, `${method} ${path} HTTP/1.1\r\nHost: bad/host\r\nConnection: close\r\n\r\n`)
    await sa.fetch('health', 'health', '/api/health')
    await sa.raw('health, bad Host', 'health', badHost('/api/health'))
    await sa.fetch('health, huge head', 'health', '/api/health', { headers: big })
    const formats = await sa.fetch('formats', 'formats', '/api/formats', { headers: auth })
    await sa.fetch('formats, current ETag', 'formats', '/api/formats', {
      headers: { ...auth, 'if-none-match': formats.headers.get('etag')! },
    })
    await sa.fetch('formats, no key', 'formats', '/api/formats')
    await sa.raw('formats, bad Host', 'formats', badHost('/api/formats'))
    await sa.fetch('formats, huge head', 'formats', '/api/formats', { headers: { ...auth, ...big } })
    const post = (bytes: Uint8Array, headers: Record<string, string> = auth) => ({
      ...rawBody(bytes),
      headers: { 'content-type': 'application/octet-stream', ...headers },
    })
    await sa.fetch('compress', 'compress', '/api/compress?format=webp', post(png))
    await sa.fetch(
      'compress as JSON',
      'compress',
      '/api/compress',
      post(png, { ...auth, accept: 'application/json' }),
    )
    const variants = `variants=${encodeURIComponent(JSON.stringify([{ format: 'webp' }, { format: 'png' }]))}`
    await sa.fetch('compress, variants as a ZIP', 'compress', `/api/compress?${variants}`, post(png))
    await sa.fetch(
      'compress, variants as JSON',
      'compress',
      `/api/compress?${variants}`,
      post(png, { ...auth, accept: 'application/json' }),
    )
    await sa.fetch(
      'compress, variants for an image type alone',
      'compress',
      `/api/compress?${variants}`,
      post(png, { ...auth, accept: 'image/webp' }),
    )
    await sa.fetch('compress, unknown option', 'compress', '/api/compress?qualty=5', post(png))
    await sa.fetch(
      'compress, url whose origin fails',
      'compress',
      fromUrl('/missing'),
      post(new Uint8Array()),
    )
    await sa.fetch('compress, url whose origin is slow', 'compress', fromUrl('/slow'), post(new Uint8Array()))
    await sa.fetch('compress, empty', 'compress', '/api/compress', post(new Uint8Array()))
    await sa.fetch('compress, no key', 'compress', '/api/compress', post(png, {}))
    await sa.fetch('compress, too large', 'compress', '/api/compress', post(new Uint8Array(5000)))
    await sa.fetch('compress, text', 'compress', '/api/compress', post(new TextEncoder().encode('notes')))
    await sa.fetch('compress, truncated', 'compress', '/api/compress', post(png.slice(0, 60)))
    await sa.fetch('compress, huge head', 'compress', '/api/compress', post(png, { ...auth, ...big }))
    await sa.raw(
      'compress, body that stops',
      'compress',
      rawExchange(a.url, (socket) => {
        socket.write(
          `POST /api/compress HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Length: 1000\r\n\r\n0123`,
        )
      }),
    )
    a.context!.lifecycle.startDraining()
    await sa.fetch('health, draining', 'health', '/api/health')

    // One worker, one place in the queue, one request per client: 429 and the 503s of a full queue.
    const b = await startApi(
      {
        rateLimit: 1,
        rateBurst: 1,
        trustProxy: 1,
        workers: 1,
        queueLength: 1,
        jobTimeoutMs: 300,
        maxClientJobs: 100,
      },
      { socket: true },
    )
    const sb = await serve(b)
    const from = (client: string) => post(png, { 'x-forwarded-for': client })
    await sb.fetch('compress, first of a client', 'compress', '/api/compress', from('10.0.0.1'))
    await sb.fetch('compress, over the rate limit', 'compress', '/api/compress', from('10.0.0.1'))
    const release = occupyWorker(b)
    const waiting = sb.fetch('compress, times out waiting', 'compress', '/api/compress', from('10.0.0.2'))
    while (b.context!.queue.stats.waiting < 1) await Bun.sleep(5)
    await sb.fetch('compress, queue full', 'compress', '/api/compress', from('10.0.0.3'))
    await waiting
    await release()

    // A rate-limit store that cannot be reached, with IMGAPI_RATE_LIMIT_FAIL=closed: 503.
    const c = await startApi(
      { rateLimit: 10, redisUrl: `redis://127.0.0.1:${freePort()}`, rateLimitFail: 'closed' },
      { socket: true },
    )
    stops.push(async () => c.context!.access.limiter.close())
    const sc = await serve(c)
    await sc.fetch('compress, limit store down', 'compress', '/api/compress', post(png, {}))

    // Storage: an answer stored, the same key again (409), a storage that cannot be reached (502).
    if (moto) {
      const storage = new MotoServer(moto)
      await storage.start()
      stops.push(() => storage.stop())
      await storage.createBucket('declared-headers')
      const e = await startApi(storage.config('s3://declared-headers/'), { socket: true })
      const se = await serve(e)
      const store = `/api/compress?store=${encodeURIComponent('s3://declared-headers/{name}.{ext}')}`
      await se.fetch('compress, stored', 'compress', store, post(png, {}))
      await se.fetch('compress, stored where an object is', 'compress', store, post(png, {}))
      const down = await startApi({
        ...storage.config('s3://declared-headers/'),
        storeEndpoint: `http://127.0.0.1:${freePort()}`,
      })
      const sf = await serve(down)
      await sf.fetch('compress, storage unreachable', 'compress', store, post(png, {}))
    }

    // Internal errors, provoked from inside: a codec check that throws, an upload budget that does.
    const config = configWith({ logLevel: 'silent', rateLimit: 10 })
    const broken = createContext(config, {
      codecs: {
        current: () => {
          throw new Error('injected')
        },
        first: () => Promise.reject(new Error('injected')),
        stop: () => {},
      },
      uploads: Object.assign(new UploadBudget(1 << 30), {
        reserve: () => {
          throw new Error('injected')
        },
      }),
    })
    const app = createApp(config, broken)
    app.listen({ port: 0, hostname: '127.0.0.1' })
    const url = `http://127.0.0.1:${app.server!.port}`
    const sd = await serve({
      url,
      fetch: (path, init) => fetch(url + path, init),
      stop: async () => void (await app.stop(true)),
    })
    await sd.fetch('health, codec check throws', 'health', '/api/health')
    await sd.fetch('compress, budget throws', 'compress', '/api/compress', post(png, {}))
  }, 60_000)
  afterAll(async () => {
    for (const stop of stops) await stop()
  })

  test('every status each operation declares was produced', () => {
    const declared = new Set<string>()
    for (const spec of specs)
      for (const [operation, [path, method]] of Object.entries(OPERATIONS))
        for (const status of Object.keys(spec.paths[path][method].responses))
          declared.add(`${operation} ${status}`)
    const produced = new Set(seen.map((s) => `${s.operation} ${s.status}`))
    expect([...declared].filter((key) => !produced.has(key) && !NOT_PRODUCED.includes(key)).sort()).toEqual(
      [],
    )
  })

  test('each answer sends exactly the documented headers its status declares', () => {
    const mismatches = seen.flatMap((s) => {
      const [path, method] = OPERATIONS[s.operation]
      const response = s.spec.paths[path][method].responses[String(s.status)]
      if (!response) return [`${s.what}: ${s.status} is not declared`]
      const declared = Object.entries((response.headers ?? {}) as Record<string, { required?: boolean }>)
      const names = new Set(declared.map(([name]) => name.toLowerCase()))
      const undeclared = [...s.headers].filter((name) => !names.has(name))
      const missing = declared
        .filter(([name, header]) => header.required && !s.headers.has(name.toLowerCase()))
        .map(([name]) => name)
      return [
        ...undeclared.map((name) => `${s.what} (${s.status}): sends ${name}, not declared`),
        ...missing.map((name) => `${s.what} (${s.status}): declares ${name} required, not sent`),
      ]
    })
    expect(mismatches).toEqual([])
  })
})

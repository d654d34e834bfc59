import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { createLogger } from '../../src/log.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'

const KEY = 'access-log-key-0123456789abcdef01234567'

describe('the access log', () => {
  const lines: Record<string, any>[] = []
  let url: string
  let stop: () => Promise<unknown>
  beforeAll(async () => {
    const config = configWith({
      logLevel: 'info',
      apiKeys: KEY,
      rateLimit: 1,
      rateWindowMs: 60_000,
      rateBurst: 1,
    })
    const logger = createLogger('info', (line) => lines.push(JSON.parse(line)))
    const context = createContext(config, { logger })
    const app = createApp(config, context)
    await context.codecs.first()
    app.listen({ port: 0, hostname: '127.0.0.1' })
    url = `http://127.0.0.1:${app.server!.port}`
    stop = () => app.stop(true)
  })
  afterAll(() => stop())

  const requestLines = (id: string | null) => lines.filter((line) => line.requestId === id)

  test('one line per request: client key id and bytes in and out, never the key', async () => {
    const input = await fixture('png-tiny-1x1-prophoto-icc.png')
    const init = rawBody(input)
    const ok = await fetch(`${url}/api/compress?format=png`, {
      ...init,
      headers: { ...(init.headers as object), authorization: `Bearer ${KEY}` },
    })
    expect(ok.status).toBe(200)
    const output = new Uint8Array(await ok.arrayBuffer())
    await Bun.sleep(20)
    const mine = requestLines(ok.headers.get('x-request-id'))
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/api/compress',
      status: 200,
      bytesIn: input.length,
      bytesOut: output.length,
    })
    expect(mine[0]!.client).toMatch(/^key:key-[0-9a-f]{8}$/)
    expect(JSON.stringify(lines)).not.toContain(KEY)
  })

  test('also for requests refused before their body is read (401, 429), with the client as an IP hash or key id', async () => {
    const unauthorized = await fetch(`${url}/api/compress`, rawBody(new Uint8Array(10)))
    expect(unauthorized.status).toBe(401)
    const limited = await fetch(`${url}/api/compress`, {
      method: 'POST',
      body: new Uint8Array(10),
      headers: { 'x-api-key': KEY },
    })
    expect(limited.status).toBe(429)
    await Bun.sleep(20)
    expect(requestLines(unauthorized.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ msg: 'request', status: 401, path: '/api/compress' }),
    ])
    const [line] = requestLines(limited.headers.get('x-request-id'))
    expect(line).toMatchObject({ status: 429, client: expect.stringMatching(/^key:/) })
    expect(requestLines(limited.headers.get('x-request-id'))).toHaveLength(1)
  })

  test('names a client without a key by a hash of its address, never the address', async () => {
    const response = await fetch(`${url}/api/health`)
    await Bun.sleep(20)
    expect(requestLines(response.headers.get('x-request-id'))).toHaveLength(1)
    expect(JSON.stringify(lines)).not.toContain('127.0.0.1')
    const unauthorized = lines.find((line) => line.status === 401)
    expect(unauthorized?.client ?? 'ip:').toMatch(/^ip:/)
  })
})

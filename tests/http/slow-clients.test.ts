import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { createLogger } from '../../src/log.ts'
import { BINARY, startApi, type Api } from '../helpers/api.ts'
import { rawExchange } from '../helpers/raw-http.ts'

const head = (length: number) =>
  `POST /api/compress HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`

describe('clients that send slowly or go away', () => {
  let api: Api
  const uploadTimeoutMs = 600
  beforeAll(async () => {
    api = await startApi({ uploadTimeoutMs }, { socket: true })
  })
  afterAll(() => api.stop())

  test('answers an upload that trickles past the upload time limit with 408 problem+json and closes', async () => {
    const started = performance.now()
    // Trickles for 10 s, long past the limit, so that a cut at all is the server's doing.
    const exchange = await rawExchange(
      api.url,
      async (socket) => {
        socket.write(head(100_000))
        for (let i = 0; i < 100 && !socket.destroyed; i++) {
          socket.write(new Uint8Array(100))
          await Bun.sleep(100)
        }
      },
      15_000,
    )
    const [response] = exchange.responses
    expect(response?.status).toBe(408)
    expect(response?.headers.get('content-type')).toBe('application/problem+json')
    expect(response?.headers.get('connection')).toBe('close')
    expect(JSON.parse(response!.body).code).toBe('REQUEST_TIMEOUT')
    expect(exchange.closedByServer).toBe(true)
    expect(performance.now() - started).toBeLessThan(uploadTimeoutMs + 5000)
    expect((await api.fetch('/api/health')).status).toBe(200)
  })
})

describe('an upload slower than Bun and Elysia would allow', () => {
  // Past the 30 s idle timeout Elysia gives Bun, where such an upload used to be cut without an
  // answer: the only slow test of the suite (about 37 s).
  const uploadTimeoutMs = 36_000
  let api: Api
  beforeAll(async () => {
    api = await startApi({ uploadTimeoutMs }, { socket: true })
  })
  afterAll(() => api.stop())

  test('is answered by IMGAPI_UPLOAD_TIMEOUT_MS (408), not cut by the server underneath', async () => {
    const started = performance.now()
    const exchange = await rawExchange(
      api.url,
      async (socket) => {
        socket.write(head(100_000))
        while (!socket.destroyed && performance.now() - started < uploadTimeoutMs + 10_000) {
          socket.write(new Uint8Array(1))
          await Bun.sleep(1000)
        }
      },
      uploadTimeoutMs + 15_000,
    )
    const [response] = exchange.responses
    expect([response?.status, response && JSON.parse(response.body).code]).toEqual([408, 'REQUEST_TIMEOUT'])
    expect(performance.now() - started).toBeGreaterThanOrEqual(uploadTimeoutMs - 50)
  }, 60_000)
})

// Log lines are only visible in-process.
describe.skipIf(Boolean(BINARY))('the access log', () => {
  test('logs a client that goes away mid-upload as 499 at level info, never as an internal error', async () => {
    const lines: Record<string, unknown>[] = []
    const config = configWith({ logLevel: 'info' })
    const logger = createLogger('info', (line) => lines.push(JSON.parse(line)))
    const app = createApp(config, { ...createContext(config), logger })
    app.listen({ port: 0, hostname: '127.0.0.1' })
    const url = `http://127.0.0.1:${app.server!.port}`
    await rawExchange(
      url,
      async (socket) => {
        socket.write(head(100_000))
        socket.write(new Uint8Array(1000))
        await Bun.sleep(100)
        socket.destroy()
      },
      1000,
    )
    for (let i = 0; i < 100 && !lines.some((l) => l.status === 499); i++) await Bun.sleep(20)
    await app.stop(true)
    const entry = lines.find((l) => l.path === '/api/compress')
    expect(entry).toMatchObject({ level: 'info', status: 499, msg: 'client closed the request' })
    expect(lines.filter((l) => l.level === 'error')).toEqual([])
  })

  test('clips a long path in the log line', async () => {
    const lines: Record<string, unknown>[] = []
    const config = configWith({ logLevel: 'info' })
    const logger = createLogger('info', (line) => lines.push(JSON.parse(line)))
    const app = createApp(config, { ...createContext(config), logger })
    await app.handle(new Request(`http://localhost/${'p'.repeat(5000)}`))
    for (let i = 0; i < 50 && lines.length === 0; i++) await Bun.sleep(10)
    expect(String(lines[0]?.path).length).toBeLessThan(260)
    expect(lines[0]?.path).toContain('(5001 characters)')
  })
})

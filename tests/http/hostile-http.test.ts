import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts'

/**
 * Requests no well-behaved client sends, over a real socket (and against the executable in
 * test:binary). Each must get a problem+json 4xx, never a crash, an HTML page or a stack trace,
 * and the server must keep serving afterwards.
 */
const BAD_HOSTS = ['a%zz', 'a:99999', '[::1', 'a b', 'bad\u00e9host.example', '']

function expectProblem(response: RawResponse | undefined, status: number, code: string) {
  expect(response, `expected a ${status} response`).toBeDefined()
  expect(response!.status).toBe(status)
  expect(response!.headers.get('content-type')).toBe('application/problem+json')
  const problem = JSON.parse(response!.body)
  expect([problem.status, problem.code]).toEqual([status, code])
  expect(response!.body).not.toMatch(/at .*\.ts:\d+|node_modules|\/work\//)
  return problem
}

describe('hostile HTTP over a real socket', () => {
  let api: Api
  const maxHeaderBytes = 4096
  beforeAll(async () => {
    api = await startApi({ maxHeaderBytes }, { socket: true })
  })
  afterAll(() => api.stop())

  const stillServes = async () => {
    const health = await api.fetch('/api/health')
    expect(health.status).toBe(200)
    await health.arrayBuffer()
  }

  for (const host of BAD_HOSTS) {
    test(`answers Host ${JSON.stringify(host)} with 400 MALFORMED_REQUEST on every method, and keeps running`, async () => {
      for (const head of ['GET /api/health', 'POST /api/compress', 'OPTIONS /api/compress', 'GET /nowhere']) {
        const body = head.startsWith('POST') ? 'abc' : ''
        const request = `${head} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
        const { responses } = await rawRequest(api.url, Buffer.from(request, 'utf8'))
        const problem = expectProblem(responses[0], 400, 'MALFORMED_REQUEST')
        expect(problem.detail).toContain('Host')
      }
      await stillServes()
    })
  }

  test('answers HTTP/1.0 without a Host with 400 MALFORMED_REQUEST, and keeps running', async () => {
    const { responses } = await rawRequest(api.url, 'GET /api/health HTTP/1.0\r\n\r\n')
    expectProblem(responses[0], 400, 'MALFORMED_REQUEST')
    await stillServes()
  })

  test('answers headers over the application limit with 431 HEADERS_TOO_LARGE in problem+json', async () => {
    const filler = 'x'.repeat(maxHeaderBytes)
    const { responses } = await rawRequest(
      api.url,
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${filler}\r\nConnection: close\r\n\r\n`,
    )
    const problem = expectProblem(responses[0], 431, 'HEADERS_TOO_LARGE')
    expect(problem.detail).toContain(String(maxHeaderBytes))
    await stillServes()
  })

  test('answers a request line over the application limit with 431 too', async () => {
    const { responses } = await rawRequest(
      api.url,
      `GET /api/health?${'q'.repeat(maxHeaderBytes)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    )
    expectProblem(responses[0], 431, 'HEADERS_TOO_LARGE')
  })

  test('clips what an error echoes: a long option value comes back as about 100 characters', async () => {
    const small = await api.fetch('/api/compress?quality=' + 'v'.repeat(3000), {
      method: 'POST',
      body: new Uint8Array([1, 2, 3]),
    })
    const text = await small.text()
    expect(small.status).toBe(400)
    expect(text.length).toBeLessThan(2000)
    expect(text).toContain('(3000 characters)')
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const compress = async (api: Api, headers: Record<string, string> = {}) => {
  const init = rawBody(await fixture('png-tiny-1x1-prophoto-icc.png'))
  return api.fetch('/api/compress?format=png', {
    ...init,
    headers: { ...(init.headers as object), ...headers },
  })
}

describe('the request-rate limit, per client', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ rateLimit: 3, rateWindowMs: 60_000, rateBurst: 3 }, { socket: true })
  })
  afterAll(() => api.stop())

  test('gives a new client exactly its burst, then 429 RATE_LIMITED with Retry-After and the rate-limit headers', async () => {
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await compress(api))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429])
    const first = answers[0]!
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60')
    expect(first.headers.get('ratelimit')).toBe('"default";r=2;t=20')
    expect(first.headers.get('x-ratelimit-limit')).toBe('3')
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2')
    expect(first.headers.get('x-ratelimit-reset')).toBe('20')
    const refused = answers[3]!
    const problem = await problemOf(refused)
    expect([problem.httpStatus, problem.code]).toEqual([429, 'RATE_LIMITED'])
    expect(refused.headers.get('retry-after')).toBe('20')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('content-type')).toBe('application/problem+json')
  })

  test('leaves health and formats unlimited', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await api.fetch('/api/health')).status).toBe(200)
      expect((await api.fetch('/api/formats')).status).toBe(200)
    }
  })

  test('does not believe X-Forwarded-For unless told to trust a proxy', async () => {
    const spoofed = await compress(api, { 'x-forwarded-for': '203.0.113.9' })
    expect(spoofed.status).toBe(429)
  })
})

describe('behind a trusted proxy', () => {
  test('tells clients apart by the address the proxy forwards', async () => {
    const api = await startApi({ rateLimit: 1, rateBurst: 1, trustProxy: 1 }, { socket: true })
    const from = (address: string) => compress(api, { 'x-forwarded-for': `198.51.100.1, ${address}` })
    expect((await from('203.0.113.1')).status).toBe(200)
    expect((await from('203.0.113.1')).status).toBe(429)
    expect((await from('203.0.113.2')).status).toBe(200)
    expect((await compress(api, { forwarded: 'for=203.0.113.3' })).status).toBe(200)
    await api.stop()
  })
})

describe('the per-client cap on compress requests in progress', () => {
  test('answers a client over its cap with 429 while it has requests in flight, and serves it again after', async () => {
    const api = await startApi({ maxClientJobs: 1, workers: 1 }, { socket: true })
    const { noisyImage } = await import('../helpers/images.ts')
    const slow = api.fetch('/api/compress?format=webp&effort=6', rawBody(await noisyImage(1500, 1000)))
    for (let i = 0; i < 100 && (await (await api.fetch('/api/health')).json()).queue.running === 0; i++)
      await Bun.sleep(20)
    const refused = await compress(api)
    const problem = await problemOf(refused)
    expect([problem.httpStatus, problem.code]).toEqual([429, 'RATE_LIMITED'])
    expect(problem.detail).toContain('at most 1 compress requests in progress')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await slow).status).toBe(200)
    expect((await compress(api)).status).toBe(200)
    await api.stop()
  }, 60_000)
})

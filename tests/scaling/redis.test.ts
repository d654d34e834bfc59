import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import type { AppContext } from '../../src/app-context.ts'
import { configWith, type Config } from '../../src/config.ts'
import { createLogger } from '../../src/log.ts'
import { fixture } from '../helpers/paths.ts'
import { parseMetrics, valueOf } from '../helpers/prometheus.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'
import { RedisServer, requireProgram, waitUntil } from '../helpers/services.ts'

const SUITE = 'shared rate limits in a real Redis'
const REDIS = requireProgram('redis-server', 'redis-server', SUITE)
const suite = REDIS ? describe : describe.skip

interface Instance {
  readonly url: string
  readonly context: AppContext
  readonly logs: Record<string, any>[]
  stop(): Promise<void>
}

async function instance(overrides: Partial<Config>): Promise<Instance> {
  const logs: Record<string, any>[] = []
  const config = configWith({ logLevel: 'info', ...overrides })
  const context = createContext(config, {
    logger: createLogger('info', (line) => logs.push(JSON.parse(line))),
  })
  const app = createApp(config, context)
  await context.codecs.first()
  app.listen({ port: 0, hostname: '127.0.0.1' })
  return {
    url: `http://127.0.0.1:${app.server!.port}`,
    context,
    logs,
    stop: async () => {
      context.access.limiter.close()
      await app.stop(true)
    },
  }
}

let png: Uint8Array
const compress = (target: Instance) => fetch(`${target.url}/api/compress?format=png`, rawBody(png))
const redisState = async (target: Instance) =>
  ((await (await fetch(`${target.url}/api/health`)).json()) as any).dependencies?.redis?.status
const untilRedis = (target: Instance, status: 'up' | 'down') =>
  waitUntil(async () => (await redisState(target)) === status, `Redis to be ${status} for ${target.url}`)

suite(SUITE, () => {
  const redis = new RedisServer(REDIS!, 'test password/with:symbols')
  const limit = { rateLimit: 6, rateWindowMs: 60_000, rateBurst: 6 }
  let a: Instance
  let b: Instance
  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
    await redis.start()
    a = await instance({ ...limit, redisUrl: redis.url, redisPrefix: 'shared-test:' })
    b = await instance({ ...limit, redisUrl: redis.url, redisPrefix: 'shared-test:' })
    await Promise.all([untilRedis(a, 'up'), untilRedis(b, 'up')])
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await redis.dispose()
  })

  test('two instances enforce ONE limit: of 10 requests alternated between them, exactly 6 pass', async () => {
    const answers: Response[] = []
    for (let i = 0; i < 10; i++) answers.push(await compress(i % 2 === 0 ? a : b))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429])
    // The headers count down across both instances: one budget, wherever the request lands.
    expect(answers.slice(0, 6).map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual([
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ])
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"default";q=6;w=60')
    const refused = answers[6]!
    expect((await problemOf(refused)).code).toBe('RATE_LIMITED')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(9)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10)
  })

  test('keeps the password out of logs, health and metrics', async () => {
    const health = await (await fetch(`${a.url}/api/health`)).text()
    const metrics = await (await fetch(`${a.url}/metrics`)).text()
    for (const text of [JSON.stringify(a.logs), health, metrics]) {
      expect(text).not.toContain('test password')
      expect(text).not.toContain(encodeURIComponent('test password/with:symbols'))
    }
  })

  test('fails open by default while Redis is down: served, logged once, shown by health (still 200) and metrics', async () => {
    await redis.stop()
    await untilRedis(a, 'down')
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await compress(a)).status)
    expect(statuses).toEqual([200, 200, 200, 200])
    const health = await fetch(`${a.url}/api/health`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as any).dependencies.redis.status).toBe('down')
    await Bun.sleep(2500) // a few reconnect attempts, none of which may log again
    expect(a.logs.filter((line) => line.msg.startsWith('redis unreachable'))).toHaveLength(1)
    const metrics = parseMetrics(await (await fetch(`${a.url}/metrics`)).text())
    expect(valueOf(metrics, 'imgapi_redis_up')).toBe(0)
    // Every check Redis could not answer counts, and so does every failed reconnection.
    expect(valueOf(metrics, 'imgapi_redis_errors_total', { call: 'rate_limit' })).toBeGreaterThanOrEqual(4)
    expect(valueOf(metrics, 'imgapi_redis_errors_total', { call: 'connect' })).toBeGreaterThanOrEqual(1)
  })

  test('recovers without a restart once Redis is back, and the shared limit holds again', async () => {
    await redis.start()
    await Promise.all([untilRedis(a, 'up'), untilRedis(b, 'up')])
    expect(a.logs.filter((line) => line.msg.startsWith('redis reachable'))).toHaveLength(2)
    // The restarted Redis kept nothing: a fresh budget of 6, shared again.
    const statuses = []
    for (let i = 0; i < 8; i++) statuses.push((await compress(i % 2 === 0 ? b : a)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
    const metrics = parseMetrics(await (await fetch(`${a.url}/metrics`)).text())
    expect(valueOf(metrics, 'imgapi_redis_up')).toBe(1)
  })
})

suite(`${SUITE}: a Redis that hangs (SIGSTOP) with its connections open`, () => {
  const redis = new RedisServer(REDIS!)
  let hung: Instance
  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
    await redis.start()
    hung = await instance({ rateLimit: 100, rateWindowMs: 60_000, redisUrl: redis.url, redisTimeoutMs: 100 })
    await untilRedis(hung, 'up')
  })
  afterAll(async () => {
    await hung?.stop()
    await redis.dispose()
  })

  const metricsOf = async () => parseMetrics(await (await fetch(`${hung.url}/metrics`)).text())

  test('is down after IMGAPI_REDIS_TIMEOUT_MS: health, imgapi_redis_up and the log say so once; up again when it answers', async () => {
    expect((await compress(hung)).headers.get('ratelimit-policy')).toBe('"default";q=100;w=60')
    redis.pause()
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await compress(hung)).status)
    expect(statuses).toEqual([200, 200, 200]) // fail open, the default
    const health = await fetch(`${hung.url}/api/health`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as any).dependencies.redis.status).toBe('down')
    await Bun.sleep(2500) // reconnection attempts meet the same silence, and log nothing more
    let metrics = await metricsOf()
    expect(valueOf(metrics, 'imgapi_redis_up')).toBe(0)
    expect(valueOf(metrics, 'imgapi_redis_errors_total', { call: 'rate_limit' })).toBeGreaterThanOrEqual(3)
    expect(valueOf(metrics, 'imgapi_redis_errors_total', { call: 'connect' })).toBeGreaterThanOrEqual(1)
    const unreachable = hung.logs.filter((line) => line.msg.startsWith('redis unreachable'))
    expect(unreachable).toHaveLength(1)
    expect(unreachable[0]!.reason).toBe('no answer within 100 ms')

    redis.resume()
    await untilRedis(hung, 'up')
    expect(hung.logs.filter((line) => line.msg.startsWith('redis reachable'))).toHaveLength(2)
    metrics = await metricsOf()
    expect(valueOf(metrics, 'imgapi_redis_up')).toBe(1)
    const limited = await compress(hung)
    expect(limited.status).toBe(200)
    expect(limited.headers.get('ratelimit-policy')).toBe('"default";q=100;w=60')
  }, 30_000)
})

suite(`${SUITE}: IMGAPI_RATE_LIMIT_FAIL=closed`, () => {
  const redis = new RedisServer(REDIS!)
  let closed: Instance
  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
    await redis.start()
    closed = await instance({
      rateLimit: 100,
      rateWindowMs: 60_000,
      redisUrl: redis.url,
      rateLimitFail: 'closed',
      redisTimeoutMs: 100,
    })
    await untilRedis(closed, 'up')
  })
  afterAll(async () => {
    await closed?.stop()
    await redis.dispose()
  })

  test('refuses with 503 UNAVAILABLE and Retry-After while Redis is down, and serves again after', async () => {
    expect((await compress(closed)).status).toBe(200)
    await redis.stop()
    await untilRedis(closed, 'down')
    const refused = await compress(closed)
    const problem = await problemOf(refused)
    expect([problem.httpStatus, problem.code]).toEqual([503, 'UNAVAILABLE'])
    expect(refused.headers.get('retry-after')).toBe('1')
    // Health and formats do not depend on Redis.
    expect((await fetch(`${closed.url}/api/health`)).status).toBe(200)
    expect((await fetch(`${closed.url}/api/formats`)).status).toBe(200)
    await redis.start()
    await untilRedis(closed, 'up')
    expect((await compress(closed)).status).toBe(200)
  })

  test('a Redis that stops answering (paused) is a failure after IMGAPI_REDIS_TIMEOUT_MS, not a hang', async () => {
    const pause = Bun.spawn(['redis-cli', '-p', String(redis.port), 'CLIENT', 'PAUSE', '10000', 'ALL'], {
      stdout: 'ignore',
    })
    await pause.exited
    const started = performance.now()
    const refused = await compress(closed)
    expect(refused.status).toBe(503)
    // Paused for 10 s, timed out after 100 ms; the margin is for a busy machine.
    expect(performance.now() - started).toBeLessThan(5000)
    const metrics = parseMetrics(await (await fetch(`${closed.url}/metrics`)).text())
    expect(valueOf(metrics, 'imgapi_redis_errors_total', { call: 'rate_limit' })).toBeGreaterThanOrEqual(1)
  })
})

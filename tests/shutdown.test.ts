import { afterAll, describe, expect, test } from 'bun:test'
import { RedisClient } from 'bun'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keyFileLine, newKey } from '../src/access/new-key.ts'
import { createApp, createContext } from '../src/app.ts'
import { configWith, type Config } from '../src/config.ts'
import { createLogger } from '../src/log.ts'
import { createShutdown } from '../src/shutdown.ts'
import { RedisServer, requireProgram, waitUntil } from './helpers/services.ts'

const SUITE = 'shutdown closes the Redis connection'
const REDIS = requireProgram('redis-server', 'redis-server', SUITE)

const dir = mkdtempSync(join(tmpdir(), 'imgapi-shutdown-'))
const keysFile = join(dir, 'keys')
const writeKeys = (id: string) => writeFileSync(keysFile, `${keyFileLine(id, newKey())}\n`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A listening app whose shutdown sequence runs in this process, with exit recorded, not done. */
async function started(overrides: Partial<Config>) {
  const logs: Record<string, any>[] = []
  const config = configWith({ logLevel: 'info', apiKeysFile: keysFile, ...overrides })
  const context = createContext(config, {
    logger: createLogger('info', (line) => logs.push(JSON.parse(line))),
  })
  const app = createApp(config, context)
  await context.codecs.first()
  app.listen({ port: 0, hostname: '127.0.0.1' })
  const exits: number[] = []
  const shutdown = createShutdown({ ...context, server: app.server!, exit: (code) => exits.push(code) })
  const reloads = () => logs.filter((line) => line.msg === 'API keys reloaded').length
  return { context, exits, reloads, shutdown: () => shutdown('SIGTERM', 0) }
}

describe('shutdown', () => {
  test('stops watching the API keys file', async () => {
    writeKeys('first')
    const api = await started({})
    writeKeys('second')
    await waitUntil(() => api.reloads() === 1, 'the watcher to reload the changed keys file')
    await api.shutdown()
    expect(api.exits).toEqual([0])
    writeKeys('third')
    // The watcher debounces by 200 ms: an open one would have reloaded well within this.
    await Bun.sleep(800)
    expect(api.reloads()).toBe(1)
  })

  test.skipIf(!REDIS)('closes its connection to Redis', async () => {
    const redis = new RedisServer(REDIS!)
    await redis.start()
    const observer = new RedisClient(redis.url)
    // Connections other than the observer's own, as Redis itself counts them.
    const clients = async () =>
      String(await observer.send('CLIENT', ['LIST']))
        .trim()
        .split('\n').length - 1
    try {
      writeKeys('first')
      const api = await started({ redisUrl: redis.url })
      await waitUntil(() => api.context.access.limiter.dependency?.status === 'up', 'Redis to be up')
      expect(await clients()).toBe(1)
      await api.shutdown()
      expect(api.exits).toEqual([0])
      await waitUntil(async () => (await clients()) === 0, 'Redis to see the connection closed')
    } finally {
      observer.close()
      await redis.dispose()
    }
  })
})

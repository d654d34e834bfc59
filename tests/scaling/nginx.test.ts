import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, createContext } from '../../src/app.ts'
import type { AppContext } from '../../src/app-context.ts'
import { configWith } from '../../src/config.ts'
import { fixture, ROOT } from '../helpers/paths.ts'
import { parseMetrics, samples } from '../helpers/prometheus.ts'
import { freePort, RedisServer, requireProgram, waitUntil } from '../helpers/services.ts'

const SUITE = 'two instances and one Redis behind the README nginx configuration'
const NGINX = requireProgram('nginx', 'nginx', SUITE)
const REDIS = requireProgram('redis-server', 'redis-server', SUITE)
const CURL = requireProgram('curl', 'curl', SUITE)
const suite = NGINX && REDIS && CURL ? describe : describe.skip

/** The README's configuration with only its addresses changed to this test's free ports. */
async function nginxSite(listen: number, upstreams: readonly number[]): Promise<string> {
  const original = await Bun.file(join(ROOT, 'static/examples/nginx.conf')).text()
  const replacements: [string, string][] = [
    ['listen 80;', `listen 127.0.0.1:${listen};`],
    ['server 127.0.0.1:3001;', `server 127.0.0.1:${upstreams[0]};`],
    ['server 127.0.0.1:3002;', `server 127.0.0.1:${upstreams[1]};`],
  ]
  let site = original
  for (const [from, to] of replacements) {
    expect(site.split(from)).toHaveLength(2) // each address appears once, as the README shows it
    site = site.replace(from, to)
  }
  return site
}

interface Instance {
  readonly port: number
  readonly context: AppContext
  stop(): Promise<void>
}

async function instance(redisUrl: string): Promise<Instance> {
  const config = configWith({
    logLevel: 'silent',
    redisUrl,
    trustProxy: 1,
    rateLimit: 4,
    rateWindowMs: 60_000,
    rateBurst: 4,
    maxUploadBytes: 1_000_000,
  })
  const context = createContext(config)
  const app = createApp(config, context)
  await context.codecs.first()
  app.listen({ port: 0, hostname: '127.0.0.1' })
  await waitUntil(() => context.access.limiter.dependency?.status === 'up', 'Redis to be up')
  return {
    port: app.server!.port!,
    context,
    stop: async () => {
      context.access.limiter.close()
      await app.stop(true)
    },
  }
}

suite(SUITE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-nginx-'))
  const redis = new RedisServer(REDIS!)
  const port = freePort()
  const base = `http://127.0.0.1:${port}`
  let instances: Instance[] = []
  let nginx: ReturnType<typeof Bun.spawn> | undefined
  let png: Uint8Array

  beforeAll(async () => {
    png = await fixture('png-tiny-1x1-prophoto-icc.png')
    await redis.start()
    instances = [await instance(redis.url), await instance(redis.url)]
    await Bun.write(
      join(dir, 'imgapi.conf'),
      await nginxSite(
        port,
        instances.map((i) => i.port),
      ),
    )
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp))
    await Bun.write(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        // As root (CI), nginx's workers would otherwise become nobody, who cannot read this directory.
        ...(process.getuid?.() === 0 ? ['user root;'] : []),
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 256; }',
        'http {',
        `  access_log ${dir}/access.log;`,
        ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${dir}/${t};`,
        ),
        `  include ${dir}/imgapi.conf;`,
        '}',
      ].join('\n'),
    )
    nginx = Bun.spawn([NGINX!, '-p', dir, '-c', join(dir, 'nginx.conf')], {
      stdout: 'ignore',
      stderr: 'pipe',
    })
    await waitUntil(async () => {
      try {
        return (await fetch(`${base}/api/health`)).status === 200
      } catch {
        return false
      }
    }, 'nginx to answer')
  })

  afterAll(async () => {
    nginx?.kill('SIGQUIT')
    await nginx?.exited
    await Promise.all(instances.map((i) => i.stop()))
    await redis.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  const compress = (headers: Record<string, string> = {}) =>
    fetch(`${base}/api/compress?format=png`, {
      method: 'POST',
      body: png as Uint8Array<ArrayBuffer>,
      headers,
    })

  test('the limit holds across both instances, and a forged X-Forwarded-For does not escape it', async () => {
    const statuses = []
    for (let i = 0; i < 6; i++)
      statuses.push((await compress({ 'x-forwarded-for': `203.0.113.${i}` })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    // Both instances answered: the limit was shared, not kept by one of them.
    const served = await Promise.all(
      instances.map(async (i) =>
        samples(parseMetrics(await i.context.metrics.text()), 'imgapi_http_requests_total', {
          route: '/api/compress',
        }).reduce((sum, sample) => sum + sample.value, 0),
      ),
    )
    expect(served.every((count) => count > 0)).toBe(true)
    expect(served[0]! + served[1]!).toBe(6)
  })

  test('another client (another address) has its own budget: nginx passes it on and imgapi believes one hop', async () => {
    // Not spawnSync: the instances run in this very process and must keep serving meanwhile.
    const run = Bun.spawn([
      CURL!,
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--interface',
      '127.0.0.2',
      '--data-binary',
      `@${join(ROOT, 'tests/fixtures/png-tiny-1x1-prophoto-icc.png')}`,
      `${base}/api/compress?format=png`,
    ])
    expect(await new Response(run.stdout).text()).toBe('200')
    // ...while the first client is still limited.
    expect((await compress()).status).toBe(429)
  })

  test('passes nginx request id through, keeps /metrics private, and lets imgapi answer oversize uploads in JSON', async () => {
    const health = await fetch(`${base}/api/health`)
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/)
    // By prefix: no spelling of the path reaches the instances' open /metrics.
    for (const path of ['/metrics', '/metrics/', '/metrics;x', '/metrics?x=1', '/metrics//'])
      expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 404])
    // A trailing slash is not another way into compress behind nginx either.
    const slash = await fetch(`${base}/api/compress/?format=png`, {
      method: 'POST',
      body: png as Uint8Array<ArrayBuffer>,
    })
    expect(slash.status).toBe(404)
    const big = join(dir, 'big.bin')
    await Bun.write(big, new Uint8Array(2_000_000))
    const run = Bun.spawn([
      CURL!,
      '-s',
      '-D',
      '-',
      '-H',
      'Expect:',
      '--interface',
      '127.0.0.3',
      '--data-binary',
      `@${big}`,
      `${base}/api/compress`,
    ])
    const answer = await new Response(run.stdout).text()
    expect(answer).toContain('HTTP/1.1 413 ')
    expect(answer.toLowerCase()).toContain('content-type: application/problem+json')
    expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"')
  })
})

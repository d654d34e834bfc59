import { describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pkg from '../package.json'
import { assetsSummary } from '../src/build/docs-assets.ts'
import { BINARY, spawnApi } from './helpers/api.ts'
import { TEST_RUN_ENV } from './helpers/leftover-processes.ts'
import { noisyImage } from './helpers/images.ts'
import { ROOT } from './helpers/paths.ts'
import { rawExchange, rawRequest, type RawResponse } from './helpers/raw-http.ts'
import { rawBody } from './helpers/requests.ts'
import { BUN_MAX_HEADER_BYTES } from '../src/settings.ts'

const command = BINARY
  ? [resolve(BINARY)]
  : [process.execPath, `--max-http-header-size=${BUN_MAX_HEADER_BYTES}`, join(ROOT, 'src/index.ts')]

async function runCli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([...command, ...args], {
    env: { HOME: '/tmp', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { stdout, stderr, code }
}

describe('the process', () => {
  test('--version prints the package version', async () => {
    const { stdout, code } = await runCli(['--version'])
    expect([stdout.trim(), code]).toEqual([pkg.version, 0])
  })

  test('--help lists every flag and environment variable', async () => {
    const { stdout, code } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const name of [
      '--port',
      'IMGAPI_PORT',
      'PORT',
      '--max-upload-bytes',
      'IMGAPI_MAX_INPUT_PIXELS',
      'IMGAPI_QUEUE_LENGTH',
      'IMGAPI_JOB_TIMEOUT_MS',
    ]) {
      expect(stdout).toContain(name)
    }
  })

  test('exits non-zero with one line naming a bad flag or value', async () => {
    const bad = await runCli(['--port', 'eighty'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr.trim().split('\n')).toEqual([
      'imgapi: --port must be an integer between 0 and 65535, received "eighty"',
    ])
    const unknown = await runCli(['--colour', 'blue'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain('--colour')
    const env = await runCli([], { IMGAPI_WORKERS: '0' })
    expect(env.stderr).toContain('IMGAPI_WORKERS')
  })

  test('logs one start-up line with the address, version and effective limits, even at level warn', async () => {
    const api = await spawnApi({ maxUploadBytes: 123456, logLevel: 'warn' })
    expect(api.startup!.msg).toContain(`imgapi ${pkg.version} listening on http://127.0.0.1:`)
    expect(api.startup!.version).toBe(pkg.version)
    expect(api.startup!.address).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(api.startup!.limits).toMatchObject({ maxUploadBytes: 123456, maxInputPixels: 100_000_000 })
    expect((await api.fetch('/api/health')).status).toBe(200)
    await api.stop()
  })

  test('a port another program holds stops the start-up with one line naming it, exit code 2', async () => {
    // Bun listens with SO_REUSEPORT, so the holder must be a socket without it.
    const holder = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const { stderr, code } = await runCli(['--port', String(holder.port), '--host', '127.0.0.1'])
      expect(code).toBe(2)
      expect(stderr.trim().split('\n')).toEqual([
        `imgapi: cannot listen on 127.0.0.1:${holder.port} (EADDRINUSE): the port is in use; choose another with --port or IMGAPI_PORT`,
      ])
    } finally {
      holder.stop(true)
    }
  })

  test('answers /livez while it starts, and a request sent then waits for the app instead of being refused', async () => {
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const port = probe.port
    probe.stop(true)
    const proc = Bun.spawn(command, {
      env: {
        HOME: '/tmp',
        IMGAPI_PORT: String(port),
        IMGAPI_HOST: '127.0.0.1',
        IMGAPI_WARM_WORKERS: 'false',
        ...(process.env[TEST_RUN_ENV] ? { [TEST_RUN_ENV]: process.env[TEST_RUN_ENV] } : {}),
      },
      stdout: 'ignore',
      stderr: 'inherit',
    })
    try {
      let live: Response | undefined
      while (!live && proc.exitCode === null)
        live = await fetch(`http://127.0.0.1:${port}/livez`).catch(() => undefined)
      expect([live?.status, await live?.text()]).toEqual([200, 'ok\n'])
      // Asked the moment liveness answers: the app's own answer, never a refusal or a 503.
      const health = await fetch(`http://127.0.0.1:${port}/api/health`)
      expect([health.status, (await health.json()).status]).toEqual([200, 'ok'])
    } finally {
      proc.kill('SIGKILL')
      await proc.exited
    }
  })

  test('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const api = await spawnApi({ workers: 1, drainDelayMs: 200 })
    const image = await noisyImage(2000, 1500)
    const inFlight = api.fetch('/api/compress?format=webp&effort=6', rawBody(image))
    for (let i = 0; i < 200; i++) {
      const stats = (await (await api.fetch('/api/health')).json()).queue
      if (stats.running === 1) break
      await Bun.sleep(25)
    }
    api.process!.kill('SIGTERM')
    const response = await inFlight
    expect(response.status).toBe(200)
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0)
    expect(await api.process!.exited).toBe(0)
  }, 60_000)

  test('on SIGTERM keeps serving for the drain delay: health 503 "draining", Connection: close on every response, then exit 0', async () => {
    const api = await spawnApi({ drainDelayMs: 1500 })
    // A keep-alive connection opened before the signal, used again after it.
    let second: RawResponse | undefined
    const keptAlive = rawExchange(
      api.url,
      async (socket) => {
        socket.write('GET /api/formats HTTP/1.1\r\nHost: localhost\r\n\r\n')
        await Bun.sleep(400)
        socket.write('GET /api/formats HTTP/1.1\r\nHost: localhost\r\n\r\n')
      },
      3000,
    )
    await Bun.sleep(150)
    const signalled = performance.now()
    api.process!.kill('SIGTERM')
    await Bun.sleep(150)
    const health = await rawRequest(api.url, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n', 2000)
    expect(health.responses[0]?.status).toBe(503)
    expect(JSON.parse(health.responses[0]!.body).status).toBe('draining')
    expect(Number(health.responses[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(health.responses[0]?.headers.get('connection')).toBe('close')
    const exchange = await keptAlive
    second = exchange.responses[1]
    expect(exchange.responses[0]?.status).toBe(200)
    expect(second?.status).toBe(200)
    expect(second?.headers.get('connection')).toBe('close')
    expect(await api.process!.exited).toBe(0)
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(1400)
  }, 30_000)

  test('ignores SIGHUP and keeps serving', async () => {
    const api = await spawnApi()
    api.process!.kill('SIGHUP')
    await Bun.sleep(200)
    expect((await api.fetch('/api/health')).status).toBe(200)
    await api.stop()
  }, 30_000)

  test("raises Bun's own head limit to 64 KiB, so IMGAPI_MAX_HEADER_BYTES can allow up to that, and past it Bun answers a bare 431", async () => {
    const api = await spawnApi({ maxHeaderBytes: BUN_MAX_HEADER_BYTES })
    const request = (bytes: number) =>
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'x'.repeat(bytes)}\r\nConnection: close\r\n\r\n`
    // 30 KB: over Bun's default of 16 KiB, under the raised limit.
    expect((await rawRequest(api.url, request(30_000))).responses[0]?.status).toBe(200)
    const beyond = (await rawRequest(api.url, request(BUN_MAX_HEADER_BYTES + 1000))).responses[0]
    expect(beyond?.status).toBe(431)
    expect(beyond?.body).toBe('')
    await api.stop()
  }, 30_000)

  test('"keys new --id ci" prints a new 256-bit key once and the line for the keys file, which holds only its hash', async () => {
    const { stdout, code } = await runCli(['keys', 'new', '--id', 'ci', '--limit', '600/1m'])
    expect(code).toBe(0)
    const lines = stdout
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('#'))
    expect(lines).toHaveLength(2)
    const [key, fileLine] = lines as [string, string]
    expect(key).toMatch(/^imgapi_[A-Za-z0-9_-]{43}$/)
    const digest = new Bun.CryptoHasher('sha256').update(key).digest('hex')
    expect(fileLine).toBe(`ci sha256:${digest} limit=600/1m`)
    const bad = await runCli(['keys', 'new'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('usage: imgapi keys new --id <id>')
  })
})

describe('third-party notices', () => {
  test('--licenses prints the licence of everything the executable carries, and how to replace libheif', async () => {
    const { stdout, code } = await runCli(['--licenses'])
    expect(code).toBe(0)
    const titles = [...stdout.matchAll(/^={78}\n(\S+) \S+\n={78}$/gm)].map((m) => m[1])
    for (const name of ['@oven/bun-linux-x64', 'sharp', '@img/sharp-libvips-linux-x64', 'elysia', 'i18next'])
      expect(titles).toContain(name)
    for (const name of ['@scalar/api-reference', 'libheif-js', 'jxl-oxide-wasm'])
      expect(titles).toContain(name)
    // The libraries inside libvips, as sharp-libvips lists them, and the LGPL texts themselves.
    expect(stdout).toMatch(/\| libvips +\| LGPLv3/)
    expect(stdout).toContain('GNU LESSER GENERAL PUBLIC LICENSE')
    expect(stdout).toContain('IMGAPI_HEIF_WASM=/path/to/libheif.wasm')
    expect((await runCli(['--help'])).stdout).toContain('--licenses')
  })
})

describe('npm start', () => {
  test('the docs-assets build before the server says what it built in one short line, not every hashed name', () => {
    const files = [
      ...Array.from({ length: 44 }, (_, i) => `chunk-${i}abcdefg.js`),
      'site-1.css',
      'tools-2.css',
    ]
    const line = assetsSummary(files, 41.4)
    expect(line).toBe('docs assets: 46 files (44 js, 2 css) and the examples, in 41 ms')
    expect(line).not.toContain('chunk-')
  })
})

describe('a reader that goes away', () => {
  test('--licenses | head: the closed pipe ends it quietly, exit 0, no stack trace', async () => {
    const proc = Bun.spawn([...command, '--licenses'], {
      env: { HOME: '/tmp' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    // What `head -c` does: read a little, then close the pipe.
    const reader = proc.stdout.getReader()
    await reader.read()
    await reader.cancel()
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  })
})

describe('the HEIF decoder module (IMGAPI_HEIF_WASM, the LGPL right to relink)', () => {
  const embedded = join(ROOT, 'node_modules/libheif-js/libheif-wasm/libheif.wasm')

  test('a replacement libheif.wasm given by path decodes HEIC uploads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imgapi-heif-wasm-'))
    const replacement = join(dir, 'my-libheif.wasm')
    copyFileSync(embedded, replacement)
    const api = await spawnApi({ heifWasm: replacement, logLevel: 'warn' })
    try {
      const heic = await Bun.file(join(ROOT, 'tests/fixtures/heic-irot-exif-orientation-6.heic')).bytes()
      const response = await api.fetch('/api/compress?format=jpeg', rawBody(heic))
      expect(response.status).toBe(200)
      expect(response.headers.get('x-image-width')).toBe('600')
    } finally {
      await api.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a replacement that is not a WebAssembly module stops the start-up, naming the setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imgapi-heif-wasm-'))
    const broken = join(dir, 'libheif.wasm')
    writeFileSync(broken, 'not a module')
    try {
      const { stderr, code } = await runCli([], { IMGAPI_HEIF_WASM: broken, IMGAPI_PORT: '0' })
      expect(code).toBe(2)
      expect(stderr).toContain(`IMGAPI_HEIF_WASM: ${broken} is not a WebAssembly module`)
      const missing = await runCli([], { IMGAPI_HEIF_WASM: join(dir, 'absent.wasm'), IMGAPI_PORT: '0' })
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain('IMGAPI_HEIF_WASM: cannot read')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

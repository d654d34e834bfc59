import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, createContext } from '../../src/app.ts'
import type { AppContext } from '../../src/app-context.ts'
import { configWith, type Config } from '../../src/config.ts'
import { UrlSources, type Resolve } from '../../src/source/index.ts'
import { BUN_MAX_HEADER_BYTES, SETTINGS } from '../../src/settings.ts'
import { ROOT } from './paths.ts'
import { TEST_RUN_ENV } from './leftover-processes.ts'

/**
 * One way for every API test to reach a server, wherever it runs:
 * - in-process (default): `app.handle`, no socket, fastest;
 * - `socket: true`: the same app listening on 127.0.0.1:0, for behaviour that needs a real
 *   connection (body limits, concurrency);
 * - a separate process, when IMGAPI_TEST_BINARY names an executable (or `process: true`
 *   runs `bun src/index.ts`), started alone in an empty directory with no PATH.
 */
export interface Api {
  readonly url: string
  fetch(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
  /** Only for in-process servers: the shared context (queue, lifecycle). */
  readonly context?: AppContext
  readonly process?: ReturnType<typeof Bun.spawn>
  /** For spawned servers: the parsed start-up log line. */
  readonly startup?: Record<string, any>
}

export interface StartOptions {
  socket?: boolean
  process?: boolean
  /** In-process servers only: the resolver URL sources use, in place of the system's. */
  resolve?: Resolve
}

const quiet: Partial<Config> = { logLevel: 'silent' }
export const BINARY = process.env.IMGAPI_TEST_BINARY

export async function startApi(overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<Api> {
  if (BINARY || options.process) return spawnApi(overrides)
  const config = configWith({ ...quiet, ...overrides })
  const context = createContext(
    config,
    options.resolve ? { urlSources: new UrlSources(config, options.resolve) } : {},
  )
  const app = createApp(config, context)
  if (!options.socket) {
    return {
      url: 'http://localhost',
      fetch: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
      stop: async () => {},
      context,
    }
  }
  // As the real server does: traffic only once the codec check has run, so health never waits.
  await context.codecs.first()
  app.listen({ port: 0, hostname: '127.0.0.1' })
  const url = `http://127.0.0.1:${app.server!.port}`
  return {
    url,
    fetch: (path, init) => fetch(url + path, init),
    stop: async () => void (await app.stop(true)),
    context,
  }
}

function envFor(overrides: Partial<Config>): Record<string, string> {
  // Workers start on the first job: most test servers answer a few requests, and starting
  // every worker of every server up front would cost the run its time.
  const env: Record<string, string> = {
    IMGAPI_PORT: '0',
    IMGAPI_HOST: '127.0.0.1',
    IMGAPI_LOG_LEVEL: 'info',
    IMGAPI_WARM_WORKERS: 'false',
  }
  // What worker processes cost the run, measured: the same suites with jobs in the server.
  if (process.env.IMGAPI_TEST_IN_PROCESS_JOBS === '1') env.IMGAPI_IN_PROCESS_JOBS = 'true'
  for (const [name, value] of Object.entries(overrides)) {
    env[SETTINGS[name as keyof typeof SETTINGS].env[0]!] = String(value)
  }
  // The start-up line (it carries the port) is printed at every level but silent.
  if (overrides.logLevel === 'silent') env.IMGAPI_LOG_LEVEL = 'warn'
  return env
}

/** Reads stdout until the start-up line, which carries the bound address. */
export async function waitForStartup(proc: ReturnType<typeof Bun.spawn>): Promise<Record<string, any>> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const { done, value } = await reader.read()
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    for (const line of buffered.split('\n')) {
      if (line.includes('"address"')) {
        reader.releaseLock()
        return JSON.parse(line)
      }
    }
  }
  throw new Error(`server did not start; output so far:\n${buffered}`)
}

let lone: { binary: string; home: string } | undefined

/** The executable copied alone into an empty directory, once per test run, with its own HOME. */
export function loneExecutable(): { binary: string; home: string } {
  if (!lone) {
    const dir = mkdtempSync(join(tmpdir(), 'imgapi-lone-'))
    const binary = join(dir, 'imgapi')
    copyFileSync(BINARY!, binary)
    chmodSync(binary, 0o755)
    lone = { binary, home: mkdtempSync(join(tmpdir(), 'imgapi-home-')) }
  }
  return lone
}

export async function spawnApi(overrides: Partial<Config> = {}): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-test-'))
  const command = BINARY
    ? [loneExecutable().binary]
    : [process.execPath, `--max-http-header-size=${BUN_MAX_HEADER_BYTES}`, join(ROOT, 'src/index.ts')]
  const proc = Bun.spawn(command, {
    cwd: dir,
    // No PATH: the executable must not find bun or node.
    env: {
      HOME: BINARY ? loneExecutable().home : dir,
      // Marks the server and its workers as this run's, for the check that none outlives it.
      ...(process.env[TEST_RUN_ENV] ? { [TEST_RUN_ENV]: process.env[TEST_RUN_ENV] } : {}),
      ...envFor(overrides),
    },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const startup = await waitForStartup(proc)
  const url = `http://${startup.address}`
  void (proc.stdout as ReadableStream).pipeTo(new WritableStream()).catch(() => {})
  return {
    url,
    fetch: (path, init) => fetch(url + path, init),
    process: proc,
    startup,
    stop: async () => {
      // A server that ended by itself with a failure (an unhandled error, a crash) fails the
      // suite that stops it, even when every request it answered looked right.
      const died = proc.exitCode !== null && proc.exitCode !== 0
      proc.kill('SIGKILL')
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
      if (died) throw new Error(`the server exited by itself with code ${proc.exitCode}`)
    },
  }
}

import type { Subprocess } from 'bun'
import { BUN_MAX_HEADER_BYTES } from '../../src/settings.ts'
import { machineCpuSeconds, procCpuSeconds, treeCpuSeconds } from './proc.ts'

/* The imgapi server as a child process (always stopped), and the CPU its neighbours took meanwhile. */

export interface ServerHandle {
  readonly pid: number
  readonly baseUrl: string
  /** The exit code, once the process has ended (by `stop()` or on its own). */
  readonly exited: Promise<number>
  /** Sends a signal and nothing else, for benchmarks of the shutdown itself. */
  signal(name: 'SIGTERM' | 'SIGINT'): void
  /** SIGTERM (the server drains, nothing is in flight by then), SIGKILL if it lingers. */
  stop(): Promise<void>
}

export interface ServerOptions {
  readonly repoRoot: string
  readonly queueLength?: number
  /** IMGAPI_* settings; they win over the defaults set here. */
  readonly env?: Readonly<Record<string, string>>
  /** What to run instead of the sources, e.g. the compiled executable (`[path]`). */
  readonly command?: readonly string[]
  /** Answers 200 once the server is up; another server than imgapi (bench/peers) names its own. */
  readonly readyPath?: string
}

const READY_TIMEOUT_MS = 20_000
const STOP_GRACE_MS = 5_000
const live = new Set<Subprocess>()
/** CPU seconds of the children already stopped: read just before each exits, as /proc forgets it then. */
let stoppedChildrenCpu = 0

/** Kills every child still running; synchronous so it also works from an `exit` handler. */
export function killChildren(): void {
  for (const child of live) child.kill('SIGKILL')
  live.clear()
}

/**
 * On a shared 2-core machine the figures mean little if something else was running: this tells
 * how many CPUs other processes kept busy, on average, between start and `otherCpus()`.
 */
export function startCpuWitness() {
  // A server's workers are its work too, not a busy neighbour.
  const runningCpu = () => [...live].reduce((sum, child) => sum + treeCpuSeconds(child.pid), 0)
  const machine0 = machineCpuSeconds()
  const self0 = procCpuSeconds('self')
  // Children already running count from now on: what they spent before is not this window's.
  const children0 = stoppedChildrenCpu + runningCpu()
  const started = performance.now()
  return {
    otherCpus: () => {
      const ours = procCpuSeconds('self') - self0 + stoppedChildrenCpu + runningCpu() - children0
      return Math.max(0, machineCpuSeconds() - machine0 - ours) / ((performance.now() - started) / 1000)
    },
  }
}

/**
 * The server only prints its start-up line (with the bound address) at log level info, and at
 * info it also logs every request, which would be measured as HTTP overhead. So the port is
 * chosen here: the OS hands out a free one, we release it and the child binds it at once.
 */
function reserveFreePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = listener.port
  listener.stop(true)
  return port
}

async function waitUntilHealthy(child: Subprocess, readyUrl: string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited during start-up (code ${child.exitCode})`)
    const status = await fetch(readyUrl).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    await Bun.sleep(100)
  }
  throw new Error(`GET ${readyUrl} did not answer 200 within ${READY_TIMEOUT_MS} ms`)
}

/** As `npm start` runs it: with Bun's head limit raised, so the application's own 431 answers. */
const FROM_SOURCE = [process.execPath, `--max-http-header-size=${BUN_MAX_HEADER_BYTES}`, 'src/index.ts']
let docsBuilt = false

/** As `npm start` does first: the sources import the docs site's built assets, which dist/ holds but git does not. */
function buildDocsOnce(repoRoot: string): void {
  if (docsBuilt) return
  const build = Bun.spawnSync([process.execPath, 'src/build/docs-assets.ts'], {
    cwd: repoRoot,
    stdout: 'ignore',
    stderr: 'inherit',
  })
  if (build.exitCode !== 0) throw new Error(`src/build/docs-assets.ts failed (code ${build.exitCode})`)
  docsBuilt = true
}

export async function startServer(options: ServerOptions): Promise<ServerHandle> {
  if (!options.command) buildDocsOnce(options.repoRoot)
  const port = reserveFreePort()
  const child = Bun.spawn([...(options.command ?? FROM_SOURCE)], {
    cwd: options.repoRoot,
    env: {
      ...process.env,
      IMGAPI_LOG_LEVEL: 'warn',
      ...(options.queueLength === undefined ? {} : { IMGAPI_QUEUE_LENGTH: String(options.queueLength) }),
      ...options.env,
      IMGAPI_PORT: String(port),
      IMGAPI_HOST: '127.0.0.1',
      // The conventional names too, for a server other than imgapi (bench/peers).
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    // Warnings and errors stay visible without mixing into the report on stdout.
    stdin: 'ignore',
    stdout: 2,
    stderr: 2,
  })
  live.add(child)
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (!live.delete(child)) return
    stoppedChildrenCpu += treeCpuSeconds(child.pid)
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await child.exited
    clearTimeout(timer)
  }
  try {
    await waitUntilHealthy(child, `${baseUrl}${options.readyPath ?? '/api/health'}`)
  } catch (error) {
    await stop()
    throw error
  }
  return { pid: child.pid, baseUrl, exited: child.exited, signal: (name) => child.kill(name), stop }
}

/**
 * Runs a benchmark's `main` as the process: its exit code is the process's, an error prints
 * one line (and the usage, when given) and exits with `errorCode`, and every server it started
 * stops however the process ends.
 */
export function runBenchMain(main: () => Promise<number>, usage?: string, errorCode = 1): void {
  process.on('exit', killChildren)
  process.on('SIGINT', () => process.exit(130))
  process.on('SIGTERM', () => process.exit(143))
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      console.error(`bench: ${message}${usage ? `\n${usage}` : ''}`)
      process.exit(errorCode)
    },
  )
}

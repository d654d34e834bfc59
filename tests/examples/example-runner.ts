// Runs the copy-paste examples in static/examples as a user would: as separate processes, with
// IMGAPI_URL pointing at a test server, in a scratch directory. Also decides what to do when a
// language's tool is missing: skip and say so on a developer's machine, fail in CI.
import { test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../helpers/paths.ts'

export const EXAMPLES = join(ROOT, 'static/examples')
export const IN_CI = process.env.CI === 'true'

export const scratchDir = () => mkdtempSync(join(tmpdir(), 'imgapi-example-'))

export interface Finished {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

export async function runExample(command: string[], cwd: string, imgapiUrl: string): Promise<Finished> {
  const proc = Bun.spawn(command, {
    cwd,
    env: { ...process.env, IMGAPI_URL: imgapiUrl },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { exitCode, stdout, stderr }
}

export interface Tool {
  readonly name: string
  /** Why it cannot be used here, or undefined when it can. */
  readonly missing: string | undefined
}

/** A tool is usable when `probe` runs and exits 0. `install` says how to get it on Debian. */
export function findTool(name: string, probe: string[], install: string): Tool {
  const [program = ''] = probe
  if (!Bun.which(program)) return { name, missing: `${program} is not on PATH (${install})` }
  const result = Bun.spawnSync(probe, { stdout: 'ignore', stderr: 'pipe' })
  if (result.exitCode === 0) return { name, missing: undefined }
  return { name, missing: `\`${probe.join(' ')}\` failed: ${result.stderr.toString().trim()} (${install})` }
}

// What the examples need beyond Bun; .ci/run installs the Debian packages named here.
export const CURL = findTool(
  'curl',
  ['curl', '--fail-with-body', '--version'],
  'apt-get install curl (7.76+)',
)
export const NODE = findTool(
  'node 20+',
  ['node', '-e', 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'],
  'install Node.js 20 or later',
)
/**
 * The first Python 3 that has requests: the one on PATH, else Debian's, where
 * python3-requests installs it (a machine may put another Python, such as pyenv's, first).
 */
export const PYTHON_BIN =
  ['python3', '/usr/bin/python3'].find(
    (python) => Bun.which(python) && Bun.spawnSync([python, '-c', 'import requests']).exitCode === 0,
  ) ?? 'python3'
export const PYTHON = findTool(
  'python3 with requests',
  [PYTHON_BIN, '-c', 'import requests'],
  'apt-get install python3-requests',
)
export const PHP = findTool('php', ['php', '--version'], 'apt-get install php-cli')
export const PHP_CURL = findTool(
  'php curl extension',
  ['php', '-r', 'exit(extension_loaded("curl") ? 0 : 1);'],
  'apt-get install php-curl',
)
export const GO = findTool('go', ['go', 'version'], 'apt-get install golang-go')
export const GOFMT = findTool(
  'gofmt',
  ['gofmt', '-l', join(EXAMPLES, 'compress.go')],
  'apt-get install golang-go',
)

/**
 * `test`, for tests that need these tools. Without one they are skipped with a visible warning,
 * except in CI (CI=true), where they run and fail: CI must install every tool the examples use.
 */
export function testWith(...tools: Tool[]) {
  const missing = tools
    .filter((tool) => tool.missing !== undefined)
    .map((tool) => `${tool.name}: ${tool.missing}`)
    .join('; ')
  const skip = missing !== '' && !IN_CI
  return (name: string, body: () => Promise<void>, timeoutMs = 60_000) => {
    if (skip) console.warn(`[skipped] ${name}: needs ${missing}`)
    test.skipIf(skip)(
      name,
      async () => {
        if (missing) throw new Error(`CI=true needs ${missing}`)
        await body()
      },
      timeoutMs,
    )
  }
}

/** What imgapi answers when busy, with or without Retry-After (in seconds). */
export function busy(status: 429 | 503, retryAfterSeconds?: number): Response {
  const code = status === 429 ? 'RATE_LIMITED' : 'OVERLOADED'
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' }
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds)
  return Response.json({ status, code, detail: 'busy, try again later' }, { status, headers })
}

/** Any other problem imgapi may answer, such as 422 for an image it cannot process. */
export function problem(status: number, code: string): Response {
  return Response.json(
    { status, code, detail: 'asking again will not change this answer' },
    { status, headers: { 'content-type': 'application/problem+json' } },
  )
}

/**
 * A server in front of `target` that answers its first compress requests with `refusals` and
 * forwards the rest (and every other request), noting when each compress request arrived: a
 * client's retry timing, measured exactly.
 */
export function refusingProxy(target: string, refusals: Array<() => Response>) {
  const arrivals: number[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const arrived = performance.now()
      const { pathname, search } = new URL(request.url)
      const body = await request.arrayBuffer()
      if (pathname === '/api/compress') {
        arrivals.push(arrived)
        const refusal = refusals[arrivals.length - 1]
        if (refusal) return refusal()
      }
      const headers = new Headers(request.headers)
      headers.delete('host')
      return fetch(target + pathname + search, {
        method: request.method,
        headers,
        body: body.byteLength ? body : undefined,
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, arrivals, stop: () => server.stop(true) }
}

/** The time between consecutive moments, in the same unit. */
export const gaps = (times: number[]) => times.slice(1).map((time, i) => time - times[i]!)

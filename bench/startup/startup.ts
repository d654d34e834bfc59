import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pkg from '../../package.json'
import { ROOT } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { procStatusBytes } from '../common/proc.ts'

/**
 * Start-up benchmark of the single executable: size, time from spawn to the first 200 from
 * /livez (listening) and from GET /api/health (the first codec check done) (medians of N runs; "cold" unpacks the native libraries into an empty cache,
 * "warm" reuses and re-verifies them), and resident memory when idle. The baseline, measured
 * in the same run, is the same service started from source with `bun src/index.ts`.
 *
 * Usage: bun bench/startup/startup.ts [--runs 11] [--json]   (needs `npm run build` first)
 */
const args = process.argv.slice(2)
const RUNS = Number(args[args.indexOf('--runs') + 1] ?? 11) || 11
const binary = join(ROOT, 'dist', `imgapi-${pkg.version}-linux-x64`)

const LIVEZ_GOAL_MS = 100
const HEALTH_GOAL_MS = 150

/** Polls `path` until it answers 200; milliseconds since `started`. */
async function firstOk(port: number, path: string, started: number, what: string): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${path}`)).status === 200) return performance.now() - started
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) throw new Error(`${what} did not answer ${path}`)
    await Bun.sleep(1)
  }
}

/**
 * Spawns, polls /livez until 200 (listening), then /api/health (the first codec check done);
 * returns both in milliseconds from the spawn, and the process.
 */
async function startOnce(command: string[], home: string, port: number) {
  const started = performance.now()
  const proc = Bun.spawn(command, {
    cwd: home,
    env: { HOME: home, IMGAPI_PORT: String(port), IMGAPI_HOST: '127.0.0.1', IMGAPI_LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const livezMs = await firstOk(port, '/livez', started, command.join(' '))
  const ms = await firstOk(port, '/api/health', started, command.join(' '))
  return { ms, livezMs, proc }
}

async function measure(label: string, command: string[], cold: boolean) {
  const times: number[] = []
  const livez: number[] = []
  let idle = 0
  const sharedHome = mkdtempSync(join(tmpdir(), 'imgapi-bench-home-'))
  for (let run = 0; run < RUNS; run++) {
    const home = cold ? mkdtempSync(join(tmpdir(), 'imgapi-bench-home-')) : sharedHome
    const { ms, livezMs, proc } = await startOnce(command, home, 39000 + run)
    times.push(ms)
    livez.push(livezMs)
    if (run === RUNS - 1) {
      await Bun.sleep(2000)
      idle = procStatusBytes(proc.pid, 'VmRSS')! / 2 ** 20
    }
    // SIGINT: a graceful stop without the drain delay, which would only make the run longer.
    proc.kill('SIGINT')
    await proc.exited
    if (cold) rmSync(home, { recursive: true, force: true })
  }
  rmSync(sharedHome, { recursive: true, force: true })
  return {
    label,
    livezMs: median(livez),
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    idleRssMiB: idle,
  }
}

const lone = mkdtempSync(join(tmpdir(), 'imgapi-bench-lone-'))
const copy = join(lone, 'imgapi')
copyFileSync(binary, copy)
const sizeMiB = statSync(binary).size / 2 ** 20

// Warm runs first discard one start so the page cache holds the executable, as on a server.
await measure('warm-up', [copy], false)
const results = [
  await measure('executable, warm cache', [copy], false),
  await measure('executable, cold cache', [copy], true),
  await measure('from source (bun src/index.ts)', [process.execPath, join(ROOT, 'src/index.ts')], false),
]
rmSync(lone, { recursive: true, force: true })

const baseline = results[2]!.medianMs
console.log(`imgapi ${pkg.version} start-up, ${RUNS} runs each, bun ${Bun.version}`)
console.log(`executable size: ${sizeMiB.toFixed(1)} MiB (${binary})`)
console.log('| start | /livez median ms | /api/health median ms | min | max | idle RSS MiB | vs source |')
console.log('|---|---|---|---|---|---|---|')
for (const r of results) {
  const ratio = (r.medianMs / baseline).toFixed(2)
  console.log(
    `| ${r.label} | ${r.livezMs.toFixed(0)} | ${r.medianMs.toFixed(0)} | ${r.minMs.toFixed(0)} | ${r.maxMs.toFixed(0)} | ${r.idleRssMiB.toFixed(1)} | ${ratio}x |`,
  )
}
// The goals are for the executable with a warm cache (the columns are medians; min and max are
// of /api/health).
const warm = results[0]!
const verdict = (ms: number, goal: number) =>
  `${ms.toFixed(0)} ms, goal under ${goal}: ${ms < goal ? 'met' : 'not met'}`
console.log(`goal, warm executable to /livez: ${verdict(warm.livezMs, LIVEZ_GOAL_MS)}`)
console.log(`goal, warm executable to /api/health: ${verdict(warm.medianMs, HEALTH_GOAL_MS)}`)
if (args.includes('--json')) console.log(JSON.stringify({ sizeMiB, runs: RUNS, results }))

/** How the figures are made (closed-loop load, percentiles, medians over rounds) and shown. */
import { availableParallelism } from 'node:os'
import sharp from 'sharp'

export interface RunSettings {
  readonly concurrency: number
  readonly requests: number
  readonly rounds: number
}

export interface MachineFacts {
  readonly cpus: number
  readonly bun: string
  readonly sharp: string
  readonly libvips: string
  readonly libvipsThreadsPerJob: number
  readonly serverWorkers: string
  readonly vipsConcurrencyEnv: string | null
  /** CPUs kept busy by other work (processes, hypervisor steal) during the run, on average: the noise. */
  readonly otherCpus: number
}

export interface LoadResult {
  readonly completed: number
  readonly failures: readonly string[]
  readonly wallMs: number
  readonly latenciesMs: readonly number[]
  /** Jobs completed while every lane was busy, and that time: the rate without the drain at the end. */
  readonly steady: { readonly completed: number; readonly ms: number }
}

export interface RunFigures {
  readonly completed: number
  readonly failures: number
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly peakRssMiB: number
  /** Largest RSS seen by ~100 ms polling; a cross-check of `peakRssMiB` (VmHWM for the server). */
  readonly sampledRssMiB: number
  /** CPU time of the process that encodes (this one, or the server), per measured job. */
  readonly cpuMsPerJob: number
  /** CPU time the HTTP client spent per job (0 in-process): on one machine it competes with the server. */
  readonly clientCpuMsPerJob: number
}

export interface CpuSeconds {
  readonly encoder: number
  readonly client: number
}

export const GOAL = 0.9
const NOISY_OTHER_CPUS = 0.2
const MIB = 1024 * 1024

/**
 * Runs `count` jobs with exactly `concurrency` in flight: each lane starts its next job when the
 * previous one ends, like C clients in a closed loop, so the load is steady rather than a burst.
 * The steady part ends when the first lane runs out of jobs: after it, fewer jobs run than the
 * server could, and with photos of 4 to 20 MP one large job left alone on a core moved a round's
 * req/s by up to a tenth.
 */
export async function runConcurrent(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<void>,
): Promise<LoadResult> {
  const latenciesMs: number[] = []
  const failures: string[] = []
  let next = 0
  let steady: LoadResult['steady'] | undefined
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const started = performance.now()
      try {
        await job(i)
        latenciesMs.push(performance.now() - started)
      } catch (error) {
        failures.push(`job ${i}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    steady ??= { completed: latenciesMs.length, ms: performance.now() - started }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane))
  const wallMs = performance.now() - started
  return { completed: latenciesMs.length, failures, wallMs, latenciesMs, steady: steady! }
}

/** Nearest-rank percentile: always a latency that was really observed. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

/** The middle value, or the mean of the two middle ones; used across rounds. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function figuresOf(
  result: LoadResult,
  cpu: CpuSeconds,
  peakRssBytes: number,
  sampledRssBytes: number,
): RunFigures {
  return {
    cpuMsPerJob: (cpu.encoder * 1000) / result.completed,
    clientCpuMsPerJob: (cpu.client * 1000) / result.completed,
    completed: result.completed,
    failures: result.failures.length,
    requestsPerSecond: steadyRate(result),
    p50Ms: percentile(result.latenciesMs, 50),
    p99Ms: percentile(result.latenciesMs, 99),
    peakRssMiB: peakRssBytes / MIB,
    sampledRssMiB: sampledRssBytes / MIB,
  }
}

/** Jobs per second while every lane was busy; the whole run's rate when too few ended in that time to say. */
function steadyRate(result: LoadResult): number {
  const { completed, ms } = result.steady
  return completed >= 2 ? completed / (ms / 1000) : result.completed / (result.wallMs / 1000)
}

/** Worker processes' throughput over the same jobs run in the server process: the isolation's goal. */
export const ISOLATION_GOAL = 0.97

/**
 * Each round's ratio of `a` to `b` and their median: the two runs of a round are adjacent in
 * time, so the machine's drift between rounds cancels out of each ratio.
 */
export function roundRatios(a: readonly RunFigures[], b: readonly RunFigures[]) {
  const ratios = a.map((run, i) => run.requestsPerSecond / b[i]!.requestsPerSecond)
  const ratio = median(ratios)
  return { ratios, ratio, met: ratio >= ISOLATION_GOAL }
}

/** Each figure's median on its own: a single noisy round cannot pull any of them. */
function medianFigures(rounds: readonly RunFigures[]): RunFigures {
  const of = (key: keyof RunFigures) => median(rounds.map((r) => r[key]))
  return {
    completed: of('completed'),
    failures: rounds.reduce((n, r) => n + r.failures, 0),
    requestsPerSecond: of('requestsPerSecond'),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    peakRssMiB: of('peakRssMiB'),
    sampledRssMiB: of('sampledRssMiB'),
    cpuMsPerJob: of('cpuMsPerJob'),
    clientCpuMsPerJob: of('clientCpuMsPerJob'),
  }
}

/** Facts that decide the figures; `otherCpus` comes from the run itself. */
export function machineFacts(otherCpus: number): MachineFacts {
  return {
    otherCpus,
    cpus: availableParallelism(),
    bun: Bun.version,
    sharp: sharp.versions.sharp ?? 'unknown',
    libvips: sharp.versions.vips,
    libvipsThreadsPerJob: sharp.concurrency(),
    serverWorkers: process.env.IMGAPI_WORKERS || `${availableParallelism()} (default)`,
    vipsConcurrencyEnv: process.env.VIPS_CONCURRENCY ?? null,
  }
}

export type Report = ReturnType<typeof buildReport>

export function buildReport(
  machine: MachineFacts,
  run: RunSettings & { readonly photos: number; readonly query: string },
  inProcess: RunFigures[],
  http: RunFigures[],
) {
  const base = medianFigures(inProcess)
  const served = medianFigures(http)
  const ratio = served.requestsPerSecond / base.requestsPerSecond
  return {
    machine,
    run,
    inProcess: { median: base, rounds: inProcess },
    http: { median: served, rounds: http },
    ratio,
    goal: GOAL,
    goalMet: ratio >= GOAL,
  }
}

function row(label: string, f: RunFigures): string {
  const cells = [
    f.requestsPerSecond.toFixed(2),
    f.p50Ms.toFixed(0),
    f.p99Ms.toFixed(0),
    f.peakRssMiB.toFixed(0),
  ]
  return label.padEnd(18) + cells.map((cell) => cell.padStart(10)).join('')
}

function perRound(rounds: readonly RunFigures[]): string {
  return rounds.map((r) => r.requestsPerSecond.toFixed(2)).join(' ')
}

export function formatTable({ machine: m, run, inProcess, http, ratio, goalMet }: Report): string {
  const header = ['req/s', 'p50 ms', 'p99 ms', 'RSS MiB'].map((h) => h.padStart(10)).join('')
  const vips = m.vipsConcurrencyEnv ? `, VIPS_CONCURRENCY=${m.vipsConcurrencyEnv}` : ''
  const noise = `other work kept ${m.otherCpus.toFixed(2)} of ${m.cpus} CPUs busy during the run`
  return [
    ''.padEnd(18) + header,
    row('in-process sharp', inProcess.median),
    row('HTTP (imgapi)', http.median),
    `throughput ratio HTTP / in-process: ${ratio.toFixed(2)} (goal >= ${GOAL.toFixed(2)})`,
    ...(goalMet ? [] : ['GOAL MISSED']),
    `medians of ${run.rounds} rounds; req/s per round: in-process ${perRound(inProcess.rounds)} | HTTP ${perRound(http.rounds)}`,
    `CPU per job: in-process ${inProcess.median.cpuMsPerJob.toFixed(0)} ms | HTTP server ${http.median.cpuMsPerJob.toFixed(0)} ms + client ${http.median.clientCpuMsPerJob.toFixed(0)} ms`,
    `server RSS: VmHWM ${http.median.peakRssMiB.toFixed(0)} MiB, sampled VmRSS max ${http.median.sampledRssMiB.toFixed(0)} MiB`,
    `machine: ${m.cpus} CPUs, bun ${m.bun}, sharp ${m.sharp}, libvips ${m.libvips} (${m.libvipsThreadsPerJob} threads/job), server workers ${m.serverWorkers}${vips}`,
    m.otherCpus > NOISY_OTHER_CPUS ? `WARNING: ${noise}; figures are unreliable` : noise,
    `run: concurrency ${run.concurrency}, requests ${run.requests} (+${run.photos} warm-up), rounds ${run.rounds}, ${run.photos} photos, ?${run.query}`,
  ].join('\n')
}

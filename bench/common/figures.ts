/** How the figures are made: closed-loop load, percentiles, medians over rounds. */
import { ISOLATION_GOAL } from './goals.ts'
import { procCpuSeconds } from './proc.ts'

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

/**
 * `requests` jobs over the inputs in turn, `concurrency` at a time (runConcurrent), and the CPU
 * seconds spent meanwhile by the encoder (`encoderCpu`: this process, or a server and its
 * workers) and by this process as the client.
 */
export async function runCounted<T>(
  inputs: readonly T[],
  requests: number,
  concurrency: number,
  job: (input: T) => Promise<unknown>,
  encoderCpu: () => number,
): Promise<{ result: LoadResult; cpu: CpuSeconds }> {
  const [encoder0, client0] = [encoderCpu(), procCpuSeconds('self')]
  const result = await runConcurrent(requests, concurrency, async (i) => {
    await job(inputs[i % inputs.length]!)
  })
  const cpu = { encoder: encoderCpu() - encoder0, client: procCpuSeconds('self') - client0 }
  return { result, cpu }
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

/** The median of one figure of each item. */
export const medianOf = <T>(items: readonly T[], key: (item: T) => number): number => median(items.map(key))

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

/**
 * Each round's ratio of `a` to `b` and their median: the two runs of a round are adjacent in
 * time, so the machine's drift between rounds cancels out of each ratio.
 */
export function roundRatios(a: readonly RunFigures[], b: readonly RunFigures[]) {
  const ratios = a.map((run, i) => run.requestsPerSecond / b[i]!.requestsPerSecond)
  const ratio = median(ratios)
  return { ratios, ratio, met: ratio >= ISOLATION_GOAL }
}

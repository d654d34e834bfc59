/* The throughput's report: the facts of the machine, the medians of the rounds and the table. */
import { availableParallelism } from 'node:os'
import sharp from 'sharp'
import { median, type RunFigures } from '../common/figures.ts'

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

/** HTTP throughput at least this share of the same encodes done in-process. */
export const GOAL = 0.9
const NOISY_OTHER_CPUS = 0.2

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

/**
 * Throughput of imgapi over loopback HTTP against the same encodes done in-process with sharp,
 * and against the same server running its jobs in its own process (what the worker processes
 * cost). `npm run bench` (bench/run.ts) runs it, then the costs measured in-process.
 * Alone: bun bench/throughput/throughput.ts [--concurrency 4] [--requests 60] [--rounds 3] [--json]
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CORPUS, ROOT } from '../../tests/helpers/paths.ts'
import {
  median,
  roundRatios,
  figuresOf,
  runConcurrent,
  runCounted,
  type RunFigures,
} from '../common/figures.ts'
import { ISOLATION_GOAL } from '../common/goals.ts'
import { encodeWebp1600 } from '../common/sharp-baseline.ts'
import { procCpuSeconds, startPeakSampler, treeCpuSeconds, treeStatusBytes } from '../common/proc.ts'
import { runBenchMain, startCpuWitness, startServer } from '../common/server.ts'
import { buildReport, formatTable, machineFacts, type RunSettings } from './report.ts'

const COMPRESS_QUERY = 'format=webp&width=1600'

interface Photo {
  readonly name: string
  readonly bytes: Uint8Array<ArrayBuffer>
}

type Encode = (photo: Photo) => Promise<Uint8Array>

/** The command line of the throughput, which bench/run.ts extends. */
export const THROUGHPUT_OPTIONS = {
  concurrency: { type: 'string', default: '4' },
  requests: { type: 'string', default: '60' },
  rounds: { type: 'string', default: '3' },
  json: { type: 'boolean', default: false },
} as const

export function positiveInt(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`--${flag} expects a positive integer, received "${raw}"`)
  return Number(raw)
}

export function throughputSettings(values: {
  readonly concurrency: string
  readonly requests: string
  readonly rounds: string
}): RunSettings {
  return {
    concurrency: positiveInt('concurrency', values.concurrency),
    requests: positiveInt('requests', values.requests),
    rounds: positiveInt('rounds', values.rounds),
  }
}

async function loadPhotos(): Promise<Photo[]> {
  if (!existsSync(CORPUS)) return []
  const names = readdirSync(CORPUS).filter((name) => /^photo-.*\.jpg$/.test(name))
  const load = async (name: string) => ({ name, bytes: await Bun.file(join(CORPUS, name)).bytes() })
  return Promise.all(names.sort().map(load))
}

/** The same encodes in this process with sharp (common/sharp-baseline.ts): only the HTTP path differs. */
const encodeInProcess = (photo: Photo) => encodeWebp1600(photo.bytes)

function encodeOverHttp(baseUrl: string): Encode {
  return async (photo) => {
    const response = await fetch(`${baseUrl}/api/compress?${COMPRESS_QUERY}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: photo.bytes,
    })
    const body = new Uint8Array(await response.arrayBuffer())
    if (response.status === 200) return body
    throw new Error(
      `${photo.name}: HTTP ${response.status} ${new TextDecoder().decode(body.subarray(0, 200))}`,
    )
  }
}

/** RIFF container whose form type is WEBP: the first 12 bytes of every WebP file. */
function assertWebp(name: string, bytes: Uint8Array): void {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return
  throw new Error(
    `${name}: expected a WebP, received ${bytes.length} bytes starting ${JSON.stringify(ascii(0, 12))}`,
  )
}

/**
 * Warm-up (one job per photo, not measured), then the measured run; every output is checked.
 * CPU time is counted too: unlike req/s it hardly moves when other work shares the machine.
 */
async function measure(photos: Photo[], run: RunSettings, encode: Encode, encoderPid: number | 'self') {
  const checked = (photo: Photo) => encode(photo).then((bytes) => assertWebp(photo.name, bytes))
  const warmUp = await runConcurrent(photos.length, run.concurrency, (i) => checked(photos[i]!))
  // A server's CPU is its own and its worker processes'.
  const encoderCpu = () => (encoderPid === 'self' ? procCpuSeconds('self') : treeCpuSeconds(encoderPid))
  const { result, cpu } = await runCounted(photos, run.requests, run.concurrency, checked, encoderCpu)
  const failures = [...warmUp.failures.map((failure) => `warm-up ${failure}`), ...result.failures]
  return { result, cpu, failures }
}

type Round = { readonly figures: RunFigures; readonly failures: readonly string[] }

async function inProcessRound(photos: Photo[], run: RunSettings): Promise<Round> {
  // Response buffers left from the previous HTTP round would otherwise count as baseline RSS.
  Bun.gc(true)
  const sampler = startPeakSampler(() => process.memoryUsage().rss)
  const { result, cpu, failures } = await measure(photos, run, encodeInProcess, 'self')
  const peak = sampler.stop()
  return { figures: figuresOf(result, { encoder: cpu.encoder, client: 0 }, peak, peak), failures }
}

/**
 * One round over HTTP, with a fresh server: VmHWM is a lifetime peak, and no server may sit
 * beside the baseline. `inProcessJobs` runs its jobs in the server process, as imgapi did
 * before worker processes: the isolation's cost, measured in the same run.
 */
async function httpRound(photos: Photo[], run: RunSettings, inProcessJobs = false): Promise<Round> {
  const server = await startServer({
    repoRoot: ROOT,
    queueLength: Math.max(64, run.concurrency),
    env: { IMGAPI_IN_PROCESS_JOBS: String(inProcessJobs) },
  })
  try {
    const sampler = startPeakSampler(() => treeStatusBytes(server.pid, 'VmRSS'))
    const { result, cpu, failures } = await measure(photos, run, encodeOverHttp(server.baseUrl), server.pid)
    const sampled = sampler.stop()
    const peak = treeStatusBytes(server.pid, 'VmHWM') ?? Number.NaN
    return { figures: figuresOf(result, cpu, peak, sampled), failures }
  } finally {
    await server.stop()
  }
}

/**
 * The isolation's cost as the median of each round's ratio (roundRatios): a round of either side
 * varied by up to a fifth on a quiet 2-core VM, while a CPU profile put the workers' own extra
 * work at about 2% of the samples.
 */
function isolationLine(workers: RunFigures[], inProcessJobs: RunFigures[]): string {
  const rates = (runs: RunFigures[]) => runs.map((r) => r.requestsPerSecond)
  const { ratios, ratio, met } = roundRatios(workers, inProcessJobs)
  const verdict = met ? 'met' : 'GOAL MISSED'
  const cpu = (runs: RunFigures[]) => median(runs.map((r) => r.cpuMsPerJob)).toFixed(0)
  const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ')
  return [
    `worker processes / jobs in the server process: throughput ratio ${ratio.toFixed(2)} (median of the rounds' ratios; goal >= ${ISOLATION_GOAL}, ${verdict})`,
    `  per round: ratio ${list(ratios)} | req/s workers ${list(rates(workers))} | jobs in the server process ${list(rates(inProcessJobs))}`,
    `  median req/s ${median(rates(workers)).toFixed(2)} against ${median(rates(inProcessJobs)).toFixed(2)}; server CPU per job ${cpu(workers)} ms against ${cpu(inProcessJobs)} ms`,
  ].join('\n')
}

/**
 * Measures the throughput and prints it (with `json`, stdout carries only the JSON object so that
 * it can be piped; the table goes to stderr). Returns the jobs that gave no valid WebP, or
 * undefined when the corpus is absent and nothing was measured.
 */
export async function benchThroughput(run: RunSettings, json: boolean): Promise<string[] | undefined> {
  const photos = await loadPhotos()
  if (photos.length === 0) {
    console.log(`bench: no photo-*.jpg found in ${CORPUS} (corpus absent); nothing to measure.`)
    return undefined
  }
  const witness = startCpuWitness()
  const failures: string[] = []
  const inProcess: RunFigures[] = []
  const http: RunFigures[] = []
  const httpInProcessJobs: RunFigures[] = []
  type Side = readonly [string, (p: Photo[], r: RunSettings) => Promise<Round>, RunFigures[]]
  const workersSide: Side = ['HTTP (imgapi)', httpRound, http]
  const jobsInServerSide: Side = [
    'HTTP (imgapi, jobs in the server process)',
    (p, r) => httpRound(p, r, true),
    httpInProcessJobs,
  ]
  // Alternating spreads slow drift of the machine (heat, neighbours) over both sides alike; the
  // two HTTP sides swap places every round, so neither always runs second.
  for (let round = 1; round <= run.rounds; round++) {
    const pair = round % 2 === 1 ? [workersSide, jobsInServerSide] : [jobsInServerSide, workersSide]
    for (const [label, runRound, figures] of [
      ['in-process sharp', inProcessRound, inProcess] as Side,
      ...pair,
    ]) {
      console.error(`round ${round}/${run.rounds}: ${label}`)
      const done = await runRound(photos, run)
      figures.push(done.figures)
      failures.push(...done.failures)
    }
  }
  const report = buildReport(
    machineFacts(witness.otherCpus()),
    { ...run, photos: photos.length, query: COMPRESS_QUERY },
    inProcess,
    http,
  )
  ;(json ? console.error : console.log)(formatTable(report))
  ;(json ? console.error : console.log)(isolationLine(http, httpInProcessJobs))
  if (json) console.log(JSON.stringify({ ...report, failures }))
  return failures
}

/** The exit code of a run with these failed jobs, which it prints. */
export function exitCodeFor(failures: readonly string[]): number {
  if (failures.length === 0) return 0
  console.error(
    `FAILED: ${failures.length} job(s) without a valid WebP:\n  ${failures.slice(0, 10).join('\n  ')}`,
  )
  return 1
}

if (import.meta.main) {
  runBenchMain(async () => {
    const { values } = parseArgs({ args: process.argv.slice(2), options: THROUGHPUT_OPTIONS })
    const failures = await benchThroughput(throughputSettings(values), values.json)
    return failures === undefined ? 0 : exitCodeFor(failures)
  })
}

/*
 * One row, measured side by side: both servers warmed up on every photo (those answers are kept
 * as the row's samples: the encoders are deterministic), then rounds that alternate imgapi, IPX,
 * imgapi, IPX... so that slow drift of a shared machine falls on both alike.
 */
import { figuresOf, runCounted, type RunFigures } from '../common/figures.ts'
import { procStatusBytes, startPeakSampler, treeCpuSeconds } from '../common/proc.ts'
import { startCpuWitness, type ServerHandle } from '../common/server.ts'
import { imgapiEncode, ipxEncode, type Encode, type Photo, type Server } from './clients.ts'
import type { Row } from './rows.ts'

export const CONCURRENCY = 2

/** Each photo's encoded bytes, by photo name. */
export type Samples = ReadonlyMap<string, Uint8Array>

export interface RowRun {
  readonly row: Row
  readonly rounds: Readonly<Record<Server, readonly RunFigures[]>>
  readonly samples: Readonly<Record<Server, Samples>>
  readonly failures: readonly string[]
  /** CPUs other processes kept busy during this row. */
  readonly otherCpus: number
  readonly seconds: number
}

export interface Side {
  readonly server: ServerHandle
  readonly encode: Encode
}

/** One encode per photo, not timed; the answers are the samples. */
async function warmUp(photos: readonly Photo[], side: Side, failures: string[]): Promise<Samples> {
  const samples = new Map<string, Uint8Array>()
  for (const photo of photos) {
    try {
      samples.set(photo.name, await side.encode(photo))
    } catch (error) {
      failures.push(`warm-up ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return samples
}

async function round(photos: readonly Photo[], side: Side, requests: number) {
  const pid = side.server.pid
  const sampler = startPeakSampler(() => procStatusBytes(pid, 'VmRSS'))
  // The server's whole tree: imgapi encodes in its worker processes.
  const { result, cpu } = await runCounted(photos, requests, CONCURRENCY, side.encode, () =>
    treeCpuSeconds(pid),
  )
  const rss = sampler.stop()
  return { figures: figuresOf(result, cpu, rss, rss), failures: result.failures }
}

export async function measureRow(
  row: Row,
  photos: readonly Photo[],
  servers: Readonly<Record<Server, ServerHandle>>,
  rounds: number,
  log: (line: string) => void,
): Promise<RowRun> {
  const sides: Record<Server, Side> = {
    imgapi: { server: servers.imgapi, encode: imgapiEncode(servers.imgapi.baseUrl, row) },
    ipx: { server: servers.ipx, encode: ipxEncode(servers.ipx.baseUrl, row) },
  }
  return { row, ...(await measureSides(row, photos, sides, rounds, log)) }
}

/**
 * Any two (or more) servers on one row: warm-up and samples, then rounds in which each runs
 * once, the order turning by one every round so that none always runs first.
 */
export async function measureSides<K extends string>(
  row: Row,
  photos: readonly Photo[],
  sides: Readonly<Record<K, Side>>,
  rounds: number,
  log: (line: string) => void,
) {
  const started = performance.now()
  const witness = startCpuWitness()
  const names = Object.keys(sides) as K[]
  const failures: string[] = []
  const samples = {} as Record<K, Samples>
  for (const name of names) samples[name] = await warmUp(photos, sides[name], failures)
  const figures = Object.fromEntries(names.map((name) => [name, [] as RunFigures[]])) as Record<
    K,
    RunFigures[]
  >
  for (let r = 1; r <= rounds; r++) {
    const turn = (r - 1) % names.length
    for (const name of [...names.slice(turn), ...names.slice(0, turn)]) {
      const done = await round(photos, sides[name], row.requestsPerRound)
      figures[name].push(done.figures)
      failures.push(...done.failures.map((failure) => `${name} ${failure}`))
      log(`${row.name}, round ${r}/${rounds}, ${name}: ${done.figures.requestsPerSecond.toFixed(2)} req/s`)
    }
  }
  const seconds = (performance.now() - started) / 1000
  return { rounds: figures, samples, failures, otherCpus: witness.otherCpus(), seconds }
}

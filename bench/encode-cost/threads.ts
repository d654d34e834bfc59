/*
 * Whether sharp.concurrency(1) keeps an encode (libheif's, libimagequant's) on one core. CPU ÷ wall answers it only on
 * an idle machine, so this also counts the threads that did a share of the work, from their own
 * CPU times in /proc/self/task, sampled during the encode: libaom's worker threads end with it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { sharp } from '../../src/image/sharp.ts'
import { medianOf } from '../common/figures.ts'
import { describeEncode, type EncodeSpec } from './encodes.ts'
import { timeEncode, type RawImage } from './timing.ts'

export interface ThreadTiming {
  readonly encode: string
  readonly megapixels: number
  readonly libvipsThreads: number
  readonly medianSeconds: number
  readonly medianCpuSeconds: number
  readonly cpuPerWall: number
  /** Most threads that each did at least a tenth of an encode's CPU time, over the runs. */
  readonly busyThreads: number
}

const SAMPLE_EVERY_MS = 50
const BUSY_SHARE = 0.1

/** CPU ticks of every live thread of this process, by thread id. */
function threadTicks(): Map<string, number> {
  const ticks = new Map<string, number>()
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const fields = readFileSync(`/proc/self/task/${id}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ticks.set(id, Number(fields[11]) + Number(fields[12]))
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks
}

/** One encode, with the CPU ticks each thread gained while it ran (first and last seen). */
async function encodeCountingThreads(raw: RawImage, spec: EncodeSpec) {
  const first = threadTicks()
  const last = new Map(first)
  const sample = () => {
    for (const [id, ticks] of threadTicks()) {
      if (!first.has(id)) first.set(id, 0)
      last.set(id, ticks)
    }
  }
  const timer = setInterval(sample, SAMPLE_EVERY_MS)
  const run = await timeEncode(raw, spec).finally(() => clearInterval(timer))
  sample()
  const gains = [...last].map(([id, ticks]) => ticks - (first.get(id) ?? 0))
  const total = gains.reduce((sum, gain) => sum + gain, 0)
  return { ...run, busyThreads: gains.filter((gain) => gain > 0 && gain >= BUSY_SHARE * total).length }
}

/**
 * The same encode with one libvips thread (the server's setting) and with one per CPU,
 * alternating so that other work on the machine weighs on both alike.
 */
export async function timeThreads(raw: RawImage, spec: EncodeSpec, rounds: number): Promise<ThreadTiming[]> {
  const settings = [1, availableParallelism()]
  const runs = new Map(
    settings.map((threads) => [threads, [] as Awaited<ReturnType<typeof encodeCountingThreads>>[]]),
  )
  try {
    for (let round = 0; round < rounds; round++)
      for (const threads of settings) {
        sharp.concurrency(threads)
        runs.get(threads)!.push(await encodeCountingThreads(raw, spec))
      }
  } finally {
    sharp.concurrency(1)
  }
  return settings.map((threads) => {
    const mine = runs.get(threads)!
    return {
      encode: describeEncode(spec),
      megapixels: raw.megapixels,
      libvipsThreads: threads,
      medianSeconds: medianOf(mine, (run) => run.seconds),
      medianCpuSeconds: medianOf(mine, (run) => run.cpuSeconds),
      cpuPerWall: medianOf(mine, (run) => run.cpuSeconds / run.seconds),
      busyThreads: Math.max(...mine.map((run) => run.busyThreads)),
    }
  })
}

/*
 * The memory formula the README states, peak RSS <= idle RSS + upload budget + decode budget,
 * with each term from this run: the budgets from the server's own code for the same settings,
 * idle RSS and the peak from /proc for the same process.
 */
import { loadConfig } from '../../src/config.ts'
import { planMemory } from '../../src/memory-plan.ts'
import { procStatusBytes, startPeakSampler } from '../server.ts'

/** The goal: the peak within 10% of the bound, or under it. */
export const MEMORY_GOAL_RATIO = 1.1
export const MIB = 1024 * 1024

export interface MemoryFigures {
  readonly idleBytes: number
  readonly uploadBudgetBytes: number
  readonly decodeBudgetBytes: number
  readonly boundBytes: number
  /** VmHWM: the kernel's exact lifetime peak of the server's RSS. */
  readonly peakBytes: number
  /** Largest VmRSS seen by ~100 ms polling; a cross-check of `peakBytes`. */
  readonly sampledBytes: number
}

export function memoryBudgets(env: Readonly<Record<string, string>>) {
  const plan = planMemory(loadConfig({ env }))
  return { uploadBudgetBytes: plan.uploadBudgetBytes, decodeBudgetBytes: plan.decodeBudgetBytes }
}

/** Median VmRSS of a few samples over half a second: the server at rest, after its warm-up. */
export async function idleRss(pid: number): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < 5; i++) {
    samples.push(procStatusBytes(pid, 'VmRSS') ?? Number.NaN)
    await Bun.sleep(100)
  }
  return samples.sort((a, b) => a - b)[2]!
}

/**
 * Watches a process until `stop()`. Both figures are polled, so the last values read before the
 * process exits survive it (a server that exits on SIGTERM takes its /proc entry with it).
 */
export function watchPeak(pid: number) {
  const highWater = startPeakSampler(() => procStatusBytes(pid, 'VmHWM'))
  const rss = startPeakSampler(() => procStatusBytes(pid, 'VmRSS'))
  return { stop: () => ({ peakBytes: highWater.stop(), sampledBytes: rss.stop() }) }
}

export const mib = (bytes: number) => `${Math.round(bytes / MIB)} MiB`

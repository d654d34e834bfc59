/*
 * The memory formula the README states, peak RSS <= idle RSS + upload budget + decode budget
 * + what workers keep between jobs, with each term from this run: the budgets from the
 * server's own code for the same settings, idle RSS and the peak from /proc for the server
 * and its worker processes together (their RSS summed at each sample: a killed worker takes
 * its own lifetime peak with it).
 */
import { loadConfig } from '../../src/config.ts'
import { planMemory } from '../../src/memory-plan.ts'
import { median } from '../common/figures.ts'
import { startPeakSampler, treeStatusBytes } from '../common/proc.ts'

/** The goal: the peak within 10% of the bound, or under it. */
export const MEMORY_GOAL_RATIO = 1.1
export const MIB = 1024 * 1024

export interface MemoryFigures {
  readonly idleBytes: number
  readonly uploadBudgetBytes: number
  readonly decodeBudgetBytes: number
  /** What the workers together may keep of their last job's freed memory (0 on a small limit). */
  readonly keptBytes: number
  readonly boundBytes: number
  /** The largest sum of the server's and its workers' RSS seen. */
  readonly peakBytes: number
  /** The server's and its workers' lifetime peaks (VmHWM), summed: an upper bound, a cross-check. */
  readonly sampledBytes: number
}

export function memoryBudgets(env: Readonly<Record<string, string>>) {
  const config = loadConfig({ env })
  const plan = planMemory(config)
  return {
    uploadBudgetBytes: plan.uploadBudgetBytes,
    decodeBudgetBytes: plan.decodeBudgetBytes,
    keptBytes: plan.workerKeepBytes * config.workers,
  }
}

/** Median RSS of a few samples over half a second: the server and its workers at rest, after the warm-up. */
export async function idleRss(pid: number): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < 5; i++) {
    samples.push(treeStatusBytes(pid, 'VmRSS') ?? Number.NaN)
    await Bun.sleep(100)
  }
  return median(samples)
}

/**
 * Watches a process until `stop()`. Both figures are polled, so the last values read before the
 * process exits survive it (a server that exits on SIGTERM takes its /proc entry with it).
 */
export function watchPeak(pid: number) {
  const rss = startPeakSampler(() => treeStatusBytes(pid, 'VmRSS'))
  const highWater = startPeakSampler(() => treeStatusBytes(pid, 'VmHWM'))
  return { stop: () => ({ peakBytes: rss.stop(), sampledBytes: highWater.stop() }) }
}

export const mib = (bytes: number) => `${Math.round(bytes / MIB)} MiB`

import { totalmem } from 'node:os'
import type { Config } from './config.ts'

/**
 * How the memory the service may use is split. The peak-RSS formula in the README is written
 * in these terms: runtime + upload budget + decode budget + responses in flight.
 */
export interface MemoryPlan {
  readonly limitBytes: number
  /** Where the limit came from: the setting, a container (cgroup) limit, or the machine's RAM. */
  readonly limitSource: 'setting' | 'container' | 'system'
  readonly uploadBudgetBytes: number
  readonly decodeBudgetBytes: number
  /** Freed memory each worker may keep between jobs (0: it gives it all back after each job). */
  readonly workerKeepBytes: number
}

export interface MemoryFacts {
  readonly constrained: number | undefined
  readonly total: number
}

export function systemMemory(): MemoryFacts {
  return { constrained: process.constrainedMemory?.(), total: totalmem() }
}

type MemorySettings = Pick<Config, 'memoryLimitBytes' | 'uploadBudgetBytes' | 'decodeBudgetBytes' | 'workers'>

const MIB = 1024 * 1024
/** Resident memory of an idle server and of each idle worker, as the README's bound counts them. */
const IDLE_SERVER_BYTES = 110 * MIB
const IDLE_WORKER_BYTES = 75 * MIB
/**
 * What a worker keeps of the memory its last job freed, where the limit has room for it: a
 * photo's job (up to 20 MP) frees 100-180 MiB, and getting it back from the system costs page
 * faults, about a tenth of the job's CPU (bench/throughput/throughput.ts).
 */
const WORKER_KEEP_BYTES = 192 * MIB

/**
 * Kept memory sits outside both budgets, so it must fit what the limit leaves beside them with
 * the idle processes; where it does not (a 1 GiB container), workers keep nothing.
 */
function workerKeepBytes(limitBytes: number, budgetsBytes: number, workers: number): number {
  const room = limitBytes - budgetsBytes - IDLE_SERVER_BYTES - workers * IDLE_WORKER_BYTES
  return room >= workers * WORKER_KEEP_BYTES ? WORKER_KEEP_BYTES : 0
}

export function planMemory(config: MemorySettings, facts: MemoryFacts = systemMemory()): MemoryPlan {
  const container = facts.constrained && facts.constrained > 0 && facts.constrained < facts.total
  const limitBytes = config.memoryLimitBytes || (container ? facts.constrained! : facts.total)
  const uploadBudgetBytes = config.uploadBudgetBytes || Math.floor(limitBytes / 4)
  const decodeBudgetBytes = config.decodeBudgetBytes || Math.floor(limitBytes / 2)
  return {
    limitBytes,
    limitSource: config.memoryLimitBytes ? 'setting' : container ? 'container' : 'system',
    uploadBudgetBytes,
    decodeBudgetBytes,
    workerKeepBytes: workerKeepBytes(limitBytes, uploadBudgetBytes + decodeBudgetBytes, config.workers),
  }
}

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
}

export interface MemoryFacts {
  readonly constrained: number | undefined
  readonly total: number
}

export function systemMemory(): MemoryFacts {
  return { constrained: process.constrainedMemory?.(), total: totalmem() }
}

type MemorySettings = Pick<Config, 'memoryLimitBytes' | 'uploadBudgetBytes' | 'decodeBudgetBytes'>

export function planMemory(config: MemorySettings, facts: MemoryFacts = systemMemory()): MemoryPlan {
  const container = facts.constrained && facts.constrained > 0 && facts.constrained < facts.total
  const limitBytes = config.memoryLimitBytes || (container ? facts.constrained! : facts.total)
  return {
    limitBytes,
    limitSource: config.memoryLimitBytes ? 'setting' : container ? 'container' : 'system',
    uploadBudgetBytes: config.uploadBudgetBytes || Math.floor(limitBytes / 4),
    decodeBudgetBytes: config.decodeBudgetBytes || Math.floor(limitBytes / 2),
  }
}

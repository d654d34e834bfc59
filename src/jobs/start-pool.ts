import type { Config } from '../config.ts'
import type { Logger } from '../log.ts'
import { planMemory } from '../memory-plan.ts'
import { allowedCpus, workerCpus } from './cpu-affinity.ts'
import { WORKER_CONFIG_ENV, type WorkerConfig } from './messages.ts'
import { WorkerPool, type PoolEvents } from './pool.ts'
import { workerCommand } from './worker-command.ts'

/** The pool a listening server runs its jobs in, from its settings. */
export function createWorkerPool(config: Config, logger: Logger, events?: PoolEvents): WorkerPool {
  const memory = planMemory(config)
  const workerConfig: WorkerConfig = {
    keepBytes: memory.workerKeepBytes,
    libDir: config.libDir,
    heifWasm: config.heifWasm,
    maxHeifPixels: config.maxHeifPixels,
    maxJxlPixels: config.maxJxlPixels,
  }
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value
  env[WORKER_CONFIG_ENV] = JSON.stringify(workerConfig)
  return new WorkerPool({
    size: config.workers,
    command: workerCommand(),
    env,
    budgetBytes: memory.decodeBudgetBytes,
    maxWorkerBytes: config.maxWorkerMemoryBytes,
    logger,
    events,
    cpus: workerCpus(config.pinWorkers, config.workers, allowedCpus()),
  })
}

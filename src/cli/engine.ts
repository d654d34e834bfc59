/*
 * The server's engine, driven from the command line: the same compressImage, on the same worker
 * pool (job timeout, memory watch, a crashed codec costing one file), behind the same memory
 * admission. Only the queue's wait has no limit: a batch has no client who would give up.
 */
import type { Config } from '../config.ts'
import { listedFormats } from '../image/candidates.ts'
import { compressImage, type CompressLimits, type CompressResult } from '../image/compress.ts'
import { configureDecoders } from '../image/decoders/index.ts'
import { InProcessExecutor, type JobExecutor } from '../image/executor.ts'
import { JobQueue } from '../image/queue.ts'
import { WorkerPool } from '../jobs/pool.ts'
import { createWorkerPool } from '../jobs/start-pool.ts'
import { createLogger } from '../log.ts'
import { planMemory } from '../memory-plan.ts'
import type { CompressOptions } from '../options/schema.ts'

export interface CliEngine {
  compress(input: Uint8Array, options: CompressOptions, overlay?: Uint8Array): Promise<CompressResult>
  stop(): Promise<void>
}

/** Longest wait a timer can express: a file waits for a worker as long as the batch needs. */
const NO_WAIT_LIMIT_MS = 2 ** 31 - 1

export function startEngine(config: Config): CliEngine {
  configureDecoders(config)
  const memory = planMemory(config)
  // The pool's own notes (a worker replaced) would only repeat what each failed file reports.
  const logger = createLogger('error', (line) => console.error(line))
  const executor: JobExecutor = config.inProcessJobs
    ? new InProcessExecutor()
    : createWorkerPool(config, logger)
  if (executor instanceof WorkerPool) executor.warmUp()
  const queue = new JobQueue({
    workers: config.workers,
    capacity: Number.MAX_SAFE_INTEGER,
    memoryBudgetBytes: memory.decodeBudgetBytes,
  })
  const limits: CompressLimits = {
    ...config,
    decodeBudgetBytes: memory.decodeBudgetBytes,
    queueTimeoutMs: NO_WAIT_LIMIT_MS,
  }
  return {
    async compress(input, options, overlay) {
      const ticket = queue.admit()
      try {
        const formats = { listed: listedFormats(options.formats) }
        return await compressImage(input, options, { runner: ticket, executor, limits, formats }, overlay)
      } finally {
        ticket.release()
      }
    },
    stop: () => executor.stop(),
  }
}

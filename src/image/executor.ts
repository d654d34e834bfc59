import { wallClock } from './job-clock.ts'
import type { PipelineOptions } from './pipeline.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { produceParts, type PartOutcome } from './produce-parts.ts'
import { searchDeadline } from './produce.ts'

/**
 * What a job needs: the upload, what its header said, and its parts: one per output (several
 * for `variants`), each the plans to produce it from (several for format=auto).
 */
export interface JobInput {
  readonly input: Uint8Array
  readonly probe: ImageProbe
  readonly parts: readonly (readonly JobPlan[])[]
  readonly pipeline: PipelineOptions
  /** How many parts run at once (produce-parts.ts LIST_CONCURRENCY); admission counted that many. */
  readonly concurrency?: number
  /** A watermark's bytes, beside the input's: never in the plans, which stay plain data. */
  readonly overlay?: Uint8Array
}

export interface JobLimits {
  /** Time of work, from when the job starts. */
  readonly timeoutMs: number
  /** What admission reserved for the job's memory. */
  readonly costBytes: number
}

export interface ExecutorStatus {
  readonly kind: 'in-process' | 'processes'
  /** Workers that can take a job now or after their current one. */
  readonly alive: number
  readonly size: number
  /** Workers started to replace one that died or was killed, in the last minute. */
  readonly restartsLastMinute: number
  /** Every worker has started at least once: start-up is over. */
  readonly ready: boolean
}

/** Where a job's pixels are worked: in this process, or in a worker process that can be killed. */
export interface JobExecutor {
  /**
   * True when the executor stops a job at its time itself (a worker is killed, its slot free at
   * once). Otherwise the queue answers at the time limit and keeps the slot until the work ends.
   */
  readonly enforcesTimeout: boolean
  /** Each part's outcome, in the parts' order; rejects only when the whole job failed. */
  produce(job: JobInput, limits: JobLimits): Promise<PartOutcome[]>
  status(): ExecutorStatus
  stop(): Promise<void>
}

/**
 * Jobs in the server's own process: for tests that build the app in memory, and for tools
 * such as the benchmarks. Nothing here can stop a codec once it runs.
 */
export class InProcessExecutor implements JobExecutor {
  readonly enforcesTimeout = false

  produce(job: JobInput, limits: JobLimits): Promise<PartOutcome[]> {
    const clock = wallClock()
    const deadline = searchDeadline(clock.now(), limits.timeoutMs)
    const overlay = job.overlay ? { overlay: job.overlay } : {}
    return produceParts(job.input, job.probe, job.parts, {
      ...job.pipeline,
      ...overlay,
      clock,
      deadline,
      concurrency: job.concurrency ?? 1,
    })
  }

  status(): ExecutorStatus {
    return { kind: 'in-process', alive: 1, size: 1, restartsLastMinute: 0, ready: true }
  }

  async stop(): Promise<void> {}
}

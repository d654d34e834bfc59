import type { PipelineOptions } from './pipeline.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { produce, searchDeadline, type Produced } from './produce.ts'

/** What a job needs: the upload, what its header said, and the plans to produce (several for format=auto). */
export interface JobInput {
  readonly input: Uint8Array
  readonly probe: ImageProbe
  readonly candidates: readonly JobPlan[]
  readonly pipeline: PipelineOptions
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
  produce(job: JobInput, limits: JobLimits): Promise<Produced>
  status(): ExecutorStatus
  stop(): Promise<void>
}

/**
 * Jobs in the server's own process: for tests that build the app in memory, and for tools
 * such as the benchmarks. Nothing here can stop a codec once it runs.
 */
export class InProcessExecutor implements JobExecutor {
  readonly enforcesTimeout = false

  produce(job: JobInput, limits: JobLimits): Promise<Produced> {
    const deadline = searchDeadline(performance.now(), limits.timeoutMs)
    const overlay = job.overlay ? { overlay: job.overlay } : {}
    return produce(job.input, job.probe, job.candidates, { ...job.pipeline, ...overlay, deadline })
  }

  status(): ExecutorStatus {
    return { kind: 'in-process', alive: 1, size: 1, restartsLastMinute: 0, ready: true }
  }

  async stop(): Promise<void> {}
}

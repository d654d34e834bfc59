import { AppError } from '../errors/app-error.ts'
import type { Logger } from '../log.ts'
import type { Produced } from '../image/produce.ts'
import { processingTimeout } from '../image/queue.ts'
import type { ExecutorStatus, JobExecutor, JobInput, JobLimits } from '../image/executor.ts'
import { WORKER_CPU_ENV } from './cpu-affinity.ts'
import { WorkerEnded, WorkerProcess } from './worker-process.ts'

const MIB = 1024 * 1024
/** How often a busy worker's resident memory is read. */
const MEMORY_CHECK_MS = 50
/** Crashes in a row are met with a growing pause before the next start, up to this. */
const MAX_BACKOFF_MS = 10_000

export interface PoolEvents {
  /** A worker ended in the middle of a job: it died on its own, or the server killed it. */
  stopped?(reason: 'crash' | 'timeout' | 'memory', job: JobInput): void
  /** A worker was started to replace one that ended. */
  restarted?(): void
}

export interface PoolOptions {
  readonly size: number
  readonly command: readonly string[]
  readonly env: Record<string, string>
  /**
   * The decode budget: what running jobs may use together, beyond their workers' idle memory.
   * Each job may use what admission reserved for it plus an equal share of what nobody reserved.
   */
  readonly budgetBytes: number
  /** A hard ceiling on any one job's memory (IMGAPI_MAX_WORKER_MEMORY_BYTES); 0 for none beyond its share. */
  readonly maxWorkerBytes: number
  readonly logger: Logger
  readonly events?: PoolEvents
  /** CPUs to pin workers to (jobs/cpu-affinity.ts), each new worker to the least used; none to leave them free. */
  readonly cpus?: readonly number[]
}

/**
 * Worker processes that run jobs, so that a codec that hangs, crashes or runs away with memory
 * costs one job, never the server: a job over its time or its memory is answered at once and
 * its worker killed (SIGKILL), and a worker that dies is replaced. The queue in front decides
 * who runs; the pool only ever holds as many jobs as it has workers.
 */
export class WorkerPool implements JobExecutor {
  readonly enforcesTimeout = true
  readonly #idle: WorkerProcess[] = []
  readonly #all = new Set<WorkerProcess>()
  /** The CPU each live worker is pinned to, when workers are pinned. */
  readonly #cpuOf = new Map<WorkerProcess, number>()
  /**
   * Each busy worker's job: what admission reserved for it, and the worker's resident memory
   * when it started, which the job's use is counted from.
   */
  readonly #running = new Map<WorkerProcess, { readonly costBytes: number; readonly startBytes: number }>()
  readonly #waiting: ((worker: WorkerProcess | AppError) => void)[] = []
  readonly #restarts: number[] = []
  readonly #crashes: number[] = []
  #started = 0
  #readyOnce = 0
  #stopped = false

  constructor(private readonly options: PoolOptions) {}

  /** Starts every worker in the background (warm-up); without it they start on first use. */
  warmUp(): void {
    while (this.#all.size < this.options.size) this.#spawn(false)
  }

  status(): ExecutorStatus {
    const minute = performance.now() - 60_000
    return {
      kind: 'processes',
      alive: [...this.#all].filter((worker) => !worker.ended).length,
      size: this.options.size,
      restartsLastMinute: this.#restarts.filter((at) => at > minute).length,
      ready: this.#readyOnce >= this.options.size,
    }
  }

  async produce(job: JobInput, limits: JobLimits): Promise<Produced> {
    const worker = await this.#acquire()
    // What the worker kept of its last job's freed memory is counted in the README's bound
    // already (what workers keep), and this job reuses it first.
    const startBytes = Math.max(worker.baselineBytes, worker.residentBytes() ?? 0)
    this.#running.set(worker, { costBytes: limits.costBytes, startBytes })
    let best: Produced | undefined
    const timer = setTimeout(() => worker.kill('timeout'), limits.timeoutMs)
    const watch = setInterval(() => this.#checkMemory(worker), MEMORY_CHECK_MS)
    try {
      const request = {
        probe: job.probe,
        candidates: job.candidates,
        pipeline: job.pipeline,
        timeoutMs: limits.timeoutMs,
      }
      return await worker.run(request, job.input, (found) => (best = found), job.overlay)
    } catch (error) {
      if (!(error instanceof WorkerEnded)) throw error
      if (error.reason === 'timeout' && best) return best
      throw this.#answerFor(error, job, limits)
    } finally {
      clearTimeout(timer)
      clearInterval(watch)
      this.#running.delete(worker)
      this.#release(worker)
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true
    const workers = [...this.#all]
    for (const worker of workers) worker.kill('shutdown')
    await Promise.all(workers.map((worker) => worker.exited))
  }

  #answerFor(ended: WorkerEnded, job: JobInput, limits: JobLimits): AppError {
    if (ended.reason === 'timeout') {
      this.options.events?.stopped?.('timeout', job)
      return processingTimeout(limits.timeoutMs)
    }
    if (ended.reason === 'memory') {
      this.options.events?.stopped?.('memory', job)
      return new AppError(
        'IMAGE_TOO_LARGE',
        `expected a job that fits its share of the server's decode budget (about ${Math.ceil(this.#allowance(limits.costBytes) / MIB)} MiB), this one needed more and was stopped; send a smaller image or ask for a smaller width or height`,
      )
    }
    this.options.events?.stopped?.('crash', job)
    this.#crashes.push(performance.now())
    this.options.logger.error('worker crashed', {
      inputFormat: job.probe.format,
      inputBytes: job.probe.bytes,
      width: job.probe.width,
      height: job.probe.height,
      outputFormats: job.candidates.map((plan) => plan.format),
      exitCode: ended.exitCode,
      signal: ended.signal,
    })
    return new AppError(
      'CODEC_CRASHED',
      `expected the ${job.probe.format.toUpperCase()} image to decode and encode, the codec crashed on it; the server is fine, but this image cannot be processed as asked`,
    )
  }

  /**
   * A job's memory: what it reserved, plus an equal share of the budget nobody reserved, so that
   * the running jobs together stay within the decode budget; never above the hard ceiling.
   */
  #allowance(costBytes: number): number {
    const reserved = [...this.#running.values()].reduce((sum, job) => sum + job.costBytes, 0)
    const running = Math.max(1, this.#running.size)
    const share = costBytes + Math.max(0, this.options.budgetBytes - reserved) / running
    return this.options.maxWorkerBytes > 0 ? Math.min(share, this.options.maxWorkerBytes) : share
  }

  #checkMemory(worker: WorkerProcess): void {
    const resident = worker.residentBytes()
    const job = this.#running.get(worker)
    if (resident === undefined || job === undefined) return
    if (resident - job.startBytes > this.#allowance(job.costBytes)) worker.kill('memory')
  }

  async #acquire(): Promise<WorkerProcess> {
    if (this.#stopped) throw unavailable('the server is stopping')
    for (let idle = this.#idle.pop(); idle; idle = this.#idle.pop()) {
      if (!idle.ended) return idle
      this.#release(idle)
    }
    if (this.#all.size < this.options.size) this.#spawn(false)
    const next = await new Promise<WorkerProcess | AppError>((resolve) => this.#waiting.push(resolve))
    if (next instanceof AppError) throw next
    return next
  }

  /** Back to the idle list or to a waiting job; an ended worker is replaced instead. */
  #release(worker: WorkerProcess): void {
    if (worker.ended) {
      this.#all.delete(worker)
      // The replacement takes its predecessor's CPU, which the kernel may not have reaped yet.
      if (!this.#stopped) this.#spawn(true, this.#cpuOf.get(worker))
      return
    }
    const waiter = this.#waiting.shift()
    if (waiter) waiter(worker)
    else this.#idle.push(worker)
  }

  #spawn(replacing: boolean, cpu = this.#freestCpu()): void {
    const env = cpu === undefined ? this.options.env : { ...this.options.env, [WORKER_CPU_ENV]: String(cpu) }
    const worker = new WorkerProcess(this.options.command, env)
    this.#all.add(worker)
    if (cpu !== undefined) this.#cpuOf.set(worker, cpu)
    void worker.exited.then(() => this.#cpuOf.delete(worker))
    this.#started++
    if (replacing) {
      this.#restarts.push(performance.now())
      this.options.events?.restarted?.()
    }
    const backoff = this.#backoffMs()
    worker.ready.then(
      () => {
        this.#readyOnce++
        // After crashes in a row, a pause before the new worker takes work: a poison image
        // retried in a loop must not turn the pool into a fork bomb.
        setTimeout(() => this.#release(worker), backoff)
      },
      (error: unknown) => {
        this.#all.delete(worker)
        // Stopping the server while a worker warms ends it on purpose: nothing went wrong.
        if (this.#stopped) return
        this.options.logger.error('worker failed to start', { error: String(error) })
        // Nothing to replace it with while starting fails: the jobs waiting for it are told.
        const waiter = this.#waiting.shift()
        if (waiter) waiter(unavailable('a worker process could not be started'))
      },
    )
    // A worker that exits while idle (it recycled itself, or was killed from outside) is replaced.
    void worker.exited.then(() => {
      if (this.#stopped || !this.#idle.includes(worker)) return
      this.#idle.splice(this.#idle.indexOf(worker), 1)
      this.#release(worker)
    })
  }

  /** The pinned CPU with the fewest live workers (the first such), or undefined when workers are not pinned. */
  #freestCpu(): number | undefined {
    const cpus = this.options.cpus
    if (!cpus || cpus.length === 0) return undefined
    const load = new Map(cpus.map((cpu) => [cpu, 0]))
    // A worker being killed no longer counts, though the kernel may not have reaped it yet.
    for (const [worker, cpu] of this.#cpuOf) if (!worker.ended) load.set(cpu, (load.get(cpu) ?? 0) + 1)
    return cpus.reduce((best, cpu) => (load.get(cpu)! < load.get(best)! ? cpu : best))
  }

  #backoffMs(): number {
    const minute = performance.now() - 60_000
    const recent = this.#crashes.filter((at) => at > minute).length
    return recent < 2 ? 0 : Math.min(MAX_BACKOFF_MS, 100 * 2 ** (recent - 2))
  }
}

function unavailable(why: string): AppError {
  return new AppError('UNAVAILABLE', `expected a worker to run the job, ${why}; retry in 1 s`, {
    headers: { 'retry-after': '1' },
  })
}

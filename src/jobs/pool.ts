import { AppError } from '../errors/app-error.ts'
import type { Logger } from '../log.ts'
import type { PartOutcome } from '../image/produce-parts.ts'
import type { Produced } from '../image/produce.ts'
import { processingTimeout } from '../image/queue.ts'
import type { ExecutorStatus, JobExecutor, JobInput, JobLimits } from '../image/executor.ts'
import { WORKER_CPU_ENV } from './cpu-affinity.ts'
import { WALL_CEILING_FACTOR, watchJob } from './job-watch.ts'
import { LostInputs } from './lost-inputs.ts'
import { codecCrashed, exitCause, lostAgain, tooBusy, unavailable, workerLost } from './worker-ends.ts'
import { WorkerEnded, WorkerProcess } from './worker-process.ts'

const MIB = 1024 * 1024
/** Crashes in a row are met with a growing pause before the next start, up to this. */
const MAX_BACKOFF_MS = 10_000
/**
 * A worker says it has begun a job as soon as it has read its frame: one that has not within
 * this (plus the time to read the input) is frozen or stuck, and the job goes to another.
 */
const START_ACK_MS = 1000
const START_ACK_MS_PER_MIB = 25
/** Idle workers are asked to answer this often, and replaced when they do not within the timeout. */
const PING_EVERY_MS = 2000
const PONG_TIMEOUT_MS = 1000

export type StopReason = 'crash' | 'lost' | 'timeout' | 'overloaded' | 'memory'

export interface PoolEvents {
  /** A worker ended in the middle of a job: it crashed, was killed from outside, or the server killed it. */
  stopped?(reason: StopReason, job: JobInput): void
  /** A worker was started to replace one that ended, or that stopped answering. */
  restarted?(): void
  /** A worker retired after a job (its memory grew past what it may keep) and a new one took its place. */
  recycled?(): void
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

/** What one attempt at a job ended with, when it did not produce: try again, or this answer. */
type Outcome = { readonly retry: 'not-started' | 'lost' } | { readonly answer: AppError | PartOutcome[] }

/** What a job had done when its worker ended: the parts it finished, and each search's best so far. */
interface SoFar {
  readonly finished: PartOutcome[]
  readonly best: Produced[]
}

/**
 * Worker processes that run jobs, so that a codec that hangs, crashes or runs away with memory
 * costs one job, never the server: a job over its CPU time or its memory is answered at once
 * and its worker killed (SIGKILL), and a worker that dies is replaced. A job a worker never
 * began (it was frozen, or on its way out) goes to another worker; one whose worker was killed
 * from outside is run once more on a fresh one. The queue in front decides who runs; the pool
 * only ever holds as many jobs as it has workers.
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
  readonly #lost = new LostInputs()
  #readyOnce = 0
  #stopped = false
  readonly #pings: ReturnType<typeof setInterval>

  constructor(private readonly options: PoolOptions) {
    this.#pings = setInterval(() => this.#pingIdle(), PING_EVERY_MS)
    this.#pings.unref?.()
  }

  /** Starts every worker in the background (warm-up); without it they start on first use. */
  warmUp(): void {
    while (this.#all.size < this.options.size) this.#spawn('first')
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

  async produce(job: JobInput, limits: JobLimits): Promise<PartOutcome[]> {
    const wallCeilingAt = performance.now() + limits.timeoutMs * WALL_CEILING_FACTOR
    let lostOnce = false
    // Each worker that never began the job is a worker gone; more tries than workers and a
    // spare would mean none can start.
    for (let notStarted = 0; notStarted <= this.options.size + 1;) {
      const outcome = await this.#attempt(await this.#acquire(), job, limits, wallCeilingAt, lostOnce)
      if ('answer' in outcome) {
        if (outcome.answer instanceof AppError) throw outcome.answer
        return outcome.answer
      }
      if (outcome.retry === 'lost') lostOnce = true
      else notStarted++
    }
    throw unavailable('no worker began it')
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#pings)
    const workers = [...this.#all]
    for (const worker of workers) worker.kill('shutdown')
    await Promise.all(workers.map((worker) => worker.exited))
  }

  async #attempt(
    worker: WorkerProcess,
    job: JobInput,
    limits: JobLimits,
    wallCeilingAt: number,
    lostOnce: boolean,
  ): Promise<Outcome> {
    // What the worker kept of its last job's freed memory is counted in the README's bound
    // already (what workers keep), and this job reuses it first.
    const startBytes = Math.max(worker.baselineBytes, worker.residentBytes() ?? 0)
    this.#running.set(worker, { costBytes: limits.costBytes, startBytes })
    const soFar: SoFar = { finished: [], best: [] }
    let stopWatching = () => {}
    const ackMs = START_ACK_MS + (job.input.byteLength / MIB) * START_ACK_MS_PER_MIB
    const ack = setTimeout(() => worker.kill('unresponsive'), ackMs)
    try {
      const request = {
        probe: job.probe,
        parts: job.parts,
        pipeline: job.pipeline,
        concurrency: job.concurrency ?? 1,
        timeoutMs: limits.timeoutMs,
      }
      const callbacks = {
        onStarted: () => {
          clearTimeout(ack)
          stopWatching = watchJob(worker, startBytes, {
            cpuMs: limits.timeoutMs,
            wallCeilingAt,
            allowanceBytes: () => this.#allowance(limits.costBytes),
          })
        },
        onBest: (part: number, found: Produced) => (soFar.best[part] = found),
        onPart: (part: number, outcome: PartOutcome) => (soFar.finished[part] = outcome),
      }
      return { answer: await worker.run(request, job.input, callbacks, job.overlay) }
    } catch (error) {
      if (!(error instanceof WorkerEnded)) return { answer: error as AppError }
      return this.#afterEnd(error, job, limits, soFar, lostOnce)
    } finally {
      clearTimeout(ack)
      stopWatching()
      this.#running.delete(worker)
      this.#release(worker)
    }
  }

  #afterEnd(ended: WorkerEnded, job: JobInput, limits: JobLimits, soFar: SoFar, lostOnce: boolean): Outcome {
    const { events } = this.options
    if (ended.reason === 'shutdown') return { answer: unavailable('the server is stopping') }
    if (!ended.started) return { retry: 'not-started' }
    /**
     * The parts finished keep their answers, a part in the middle of a search its best so far;
     * the rest are answered with why the job stopped. Nothing done at all: the job's error.
     */
    const withSoFar = (why: AppError): Outcome => {
      const outcomes = job.parts.map(
        (_, part): PartOutcome | undefined =>
          soFar.finished[part] ?? (soFar.best[part] ? { produced: soFar.best[part] } : undefined),
      )
      if (outcomes.every((outcome) => outcome === undefined)) return { answer: why }
      return { answer: outcomes.map((outcome) => outcome ?? { error: why }) }
    }
    if (ended.reason === 'timeout' || ended.reason === 'overloaded') {
      events?.stopped?.(ended.reason, job)
      return withSoFar(
        ended.reason === 'timeout'
          ? processingTimeout(limits.timeoutMs, 'cpu')
          : tooBusy(limits.timeoutMs, limits.timeoutMs * WALL_CEILING_FACTOR),
      )
    }
    if (ended.reason === 'memory') {
      events?.stopped?.('memory', job)
      return withSoFar(
        new AppError(
          'IMAGE_TOO_LARGE',
          `expected a job that fits its share of the server's decode budget (about ${Math.ceil(this.#allowance(limits.costBytes) / MIB)} MiB), this one needed more and was stopped; send a smaller image or ask for a smaller width or height`,
        ),
      )
    }
    const cause = ended.reason === 'unresponsive' ? 'lost' : exitCause(ended)
    const facts = {
      inputFormat: job.probe.format,
      inputBytes: job.probe.bytes,
      width: job.probe.width,
      height: job.probe.height,
      outputFormats: job.parts.flat().map((plan) => plan.format),
      exitCode: ended.exitCode,
      signal: ended.signal,
    }
    events?.stopped?.(cause, job)
    if (cause === 'crash') {
      this.#crashes.push(performance.now())
      this.options.logger.error('worker crashed', facts)
      return withSoFar(codecCrashed(job))
    }
    this.options.logger.warn('worker killed from outside the server', { ...facts, retried: lostOnce })
    if (this.#lost.has(job.input)) return { answer: lostAgain(job) }
    if (!lostOnce) return { retry: 'lost' }
    this.#lost.add(job.input)
    return { answer: workerLost() }
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

  async #acquire(): Promise<WorkerProcess> {
    if (this.#stopped) throw unavailable('the server is stopping')
    for (let idle = this.#idle.pop(); idle; idle = this.#idle.pop()) {
      if (!idle.ended) return idle
      this.#release(idle)
    }
    if (this.#all.size < this.options.size) this.#spawn('first')
    const next = await new Promise<WorkerProcess | AppError>((resolve) => this.#waiting.push(resolve))
    if (next instanceof AppError) throw next
    return next
  }

  /** Back to the idle list or to a waiting job; an ended worker is replaced instead. */
  #release(worker: WorkerProcess): void {
    if (worker.ended) {
      if (!this.#all.delete(worker)) return
      // The replacement takes its predecessor's CPU, which the kernel may not have reaped yet.
      if (!this.#stopped) this.#spawn(worker.retired ? 'recycle' : 'replace', this.#cpuOf.get(worker))
      return
    }
    const waiter = this.#waiting.shift()
    if (waiter) waiter(worker)
    else this.#idle.push(worker)
  }

  #spawn(why: 'first' | 'replace' | 'recycle', cpu = this.#freestCpu()): void {
    const env = cpu === undefined ? this.options.env : { ...this.options.env, [WORKER_CPU_ENV]: String(cpu) }
    const worker = new WorkerProcess(this.options.command, env)
    this.#all.add(worker)
    if (cpu !== undefined) this.#cpuOf.set(worker, cpu)
    void worker.exited.then(() => this.#cpuOf.delete(worker))
    if (why === 'replace') {
      this.#restarts.push(performance.now())
      this.options.events?.restarted?.()
    } else if (why === 'recycle') this.options.events?.recycled?.()
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
    // A worker that exits while idle (killed from outside, or for not answering) is replaced.
    void worker.exited.then(() => {
      if (this.#stopped || !this.#idle.includes(worker)) return
      this.#idle.splice(this.#idle.indexOf(worker), 1)
      this.#release(worker)
    })
  }

  /** Idle workers that do not answer a ping (stopped by a signal, or stuck) are replaced. */
  #pingIdle(): void {
    for (const worker of this.#idle) {
      void worker.ping(PONG_TIMEOUT_MS).then((answered) => {
        if (answered || worker.busy || worker.ended) return
        this.options.logger.warn('worker did not answer; replacing it', { pid: worker.pid })
        worker.kill('unresponsive')
      })
    }
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

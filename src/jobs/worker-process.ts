import type { Subprocess } from 'bun'
import type { PartOutcome } from '../image/produce-parts.ts'
import type { Produced } from '../image/produce.ts'
import { FrameReader, encodeFrame } from './frames.ts'
import { joinProduced, reviveError, type JobMessage, type WorkerMessage } from './messages.ts'
import { cpuMillis, residentBytes } from './process-stat.ts'

/**
 * Why the server stopped a worker: over the job's CPU time, over its memory, past the job's
 * wall-time ceiling (the machine too busy to give it its CPU time), not answering (frozen or
 * stuck), or shutting down.
 */
export type KillReason = 'timeout' | 'memory' | 'overloaded' | 'unresponsive' | 'shutdown'

/**
 * The worker ended before answering: killed by the server (with its reason), or on its own
 * ('exited': a crash, or a kill nobody in the server sent). `started` says whether it had
 * begun the job: one that never did can be given to another worker as it is.
 */
export class WorkerEnded extends Error {
  constructor(
    readonly reason: KillReason | 'exited',
    readonly exitCode: number | null,
    readonly signal: string | null,
    readonly started: boolean,
  ) {
    super(`worker ended (${reason}, exit ${exitCode}, signal ${signal}, started ${started})`)
    this.name = 'WorkerEnded'
  }
}

interface Pending extends JobCallbacks {
  readonly id: number
  started: boolean
  readonly outcomes: PartOutcome[]
  readonly resolve: (outcomes: PartOutcome[]) => void
  readonly reject: (error: unknown) => void
}

type JobRequest = Omit<JobMessage, 'type' | 'id'>

export interface JobCallbacks {
  /** The worker has the job's frame and has begun. */
  readonly onStarted: () => void
  /** A search's best answer so far, for one part. */
  readonly onBest: (part: number, best: Produced) => void
  /** A part finished: kept by the caller, so that a kill later in the job does not lose it. */
  readonly onPart: (part: number, outcome: PartOutcome) => void
}

let nextJobId = 1
/** What is written to a worker's pipe at a time; see #write. */
const WRITE_SLICE_BYTES = 256 * 1024

/** One worker process as the server sees it: its pipes, its job in progress, its memory and CPU. */
export class WorkerProcess {
  readonly #proc: Subprocess<'pipe', 'pipe', 'inherit'>
  readonly ready: Promise<void>
  readonly exited: Promise<void>
  #pending: Pending | undefined
  #killedFor: KillReason | undefined
  /** It said it exits after its last answer: it takes no more jobs, and its exit is no loss. */
  #retiring = false
  #ended = false
  #pong: (() => void) | undefined
  #writing = Promise.resolve()
  /** Resident memory when it was ready and idle: what a job's use is measured from. */
  baselineBytes = 0

  constructor(command: readonly string[], env: Record<string, string>) {
    this.#proc = Bun.spawn([...command], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit', env })
    const { promise: ready, resolve: isReady, reject: neverReady } = Promise.withResolvers<void>()
    this.ready = ready
    // A worker that dies before it is ready rejects `ready`; nobody may be listening yet.
    ready.catch(() => {})
    void this.#read(() => {
      this.baselineBytes = this.residentBytes() ?? 0
      isReady()
    })
    this.exited = this.#proc.exited.then(() => {
      this.#ended = true
      const ended = new WorkerEnded(
        this.#killedFor ?? 'exited',
        this.#proc.exitCode,
        this.#proc.signalCode === null ? null : String(this.#proc.signalCode),
        this.#pending?.started ?? false,
      )
      neverReady(ended)
      this.#settle((pending) => pending.reject(ended))
    })
  }

  get pid(): number {
    return this.#proc.pid
  }

  /** Gone, being killed, or retiring: it takes no more jobs. */
  get ended(): boolean {
    return this.#ended || this.#killedFor !== undefined || this.#retiring
  }

  /** It ended on its own terms, after answering: replaced as a recycle, not as a loss. */
  get retired(): boolean {
    return this.#retiring && this.#killedFor === undefined
  }

  get busy(): boolean {
    return this.#pending !== undefined
  }

  residentBytes(): number | undefined {
    return this.#ended ? undefined : residentBytes(this.#proc.pid)
  }

  cpuMillis(): number | undefined {
    return this.#ended ? undefined : cpuMillis(this.#proc.pid)
  }

  /**
   * Sends one job; answers with each part's outcome, the job's error, or WorkerEnded if it ends first.
   * `overlay`: a watermark's bytes, sent as the frame's second buffer.
   */
  run(
    request: JobRequest,
    input: Uint8Array,
    callbacks: JobCallbacks,
    overlay?: Uint8Array,
  ): Promise<PartOutcome[]> {
    if (this.ended) return Promise.reject(new WorkerEnded(this.#killedFor ?? 'exited', null, null, false))
    if (this.#pending) return Promise.reject(new Error('a worker runs one job at a time'))
    const id = nextJobId++
    const { promise, resolve, reject } = Promise.withResolvers<PartOutcome[]>()
    this.#pending = { ...callbacks, id, started: false, outcomes: [], resolve, reject }
    this.#write(encodeFrame({ type: 'job', id, ...request }, overlay ? [input, overlay] : [input]))
    return promise
  }

  /** True if the worker answers a ping within `timeoutMs`; an idle worker that does not is frozen or stuck. */
  ping(timeoutMs: number): Promise<boolean> {
    if (this.ended || this.#pending || this.#pong) return Promise.resolve(!this.ended)
    const { promise, resolve } = Promise.withResolvers<boolean>()
    const timer = setTimeout(() => {
      this.#pong = undefined
      resolve(false)
    }, timeoutMs)
    this.#pong = () => {
      clearTimeout(timer)
      this.#pong = undefined
      resolve(true)
    }
    this.#write(encodeFrame({ type: 'ping' }))
    return promise
  }

  /**
   * SIGKILL, and the job in progress is answered at once with the reason: its slot and memory
   * are free now, not when the kernel has reaped the process.
   */
  kill(reason: KillReason): void {
    if (this.#ended) return
    this.#killedFor ??= reason
    this.#proc.kill('SIGKILL')
    this.#settle((pending) => pending.reject(new WorkerEnded(reason, null, 'SIGKILL', pending.started)))
  }

  /**
   * Frames go out in slices, each written once the last has gone: Bun's pipe copies whatever
   * the pipe cannot take at once, which for an upload was a second copy of it in the server for
   * as long as the worker took to read it (and slower: 12 ms for 30 MiB, where one write took
   * 18-49 ms). Frames are queued, so a ping never lands inside a job's bytes.
   */
  #write(parts: readonly Uint8Array[]): void {
    this.#writing = this.#writing.then(async () => {
      try {
        for (const part of parts) {
          for (let at = 0; at < part.byteLength; at += WRITE_SLICE_BYTES) {
            this.#proc.stdin.write(part.subarray(at, at + WRITE_SLICE_BYTES))
            await this.#proc.stdin.flush()
          }
        }
      } catch {
        // The pipe broke: the worker is dying, and its exit rejects the job.
      }
    })
  }

  #settle(finish: (pending: Pending) => void): void {
    const pending = this.#pending
    this.#pending = undefined
    if (pending) finish(pending)
  }

  async #read(onReady: () => void): Promise<void> {
    const reader = new FrameReader()
    try {
      for await (const chunk of this.#proc.stdout) {
        for (const { header, buffers } of reader.push(chunk)) {
          const message = header as unknown as WorkerMessage
          if (message.type === 'ready') onReady()
          else if (message.type === 'pong') this.#pong?.()
          else this.#deliver(message, buffers[0])
        }
      }
    } catch {
      // The pipe closed under a kill: the exit handler answers the job.
    }
  }

  #deliver(message: Exclude<WorkerMessage, { type: 'ready' | 'pong' }>, data: Uint8Array | undefined): void {
    const pending = this.#pending
    if (!pending || pending.id !== message.id) return
    if (message.type === 'started') {
      pending.started = true
      return pending.onStarted()
    }
    if (message.type === 'best') return pending.onBest(message.part, joinProduced(message.produced, data!))
    if (message.type === 'part') {
      const outcome: PartOutcome =
        'produced' in message
          ? { produced: joinProduced(message.produced, data!) }
          : { error: reviveError(message.error) }
      pending.outcomes[message.part] = outcome
      return pending.onPart(message.part, outcome)
    }
    if (message.retiring) this.#retiring = true
    this.#pending = undefined
    if (message.type === 'done') pending.resolve(pending.outcomes)
    else pending.reject(reviveError(message.error))
  }
}

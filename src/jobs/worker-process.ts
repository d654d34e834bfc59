import type { Subprocess } from 'bun'
import type { Produced } from '../image/produce.ts'
import { FrameReader, encodeFrame } from './frames.ts'
import { joinProduced, reviveError, type JobMessage, type WorkerMessage } from './messages.ts'
import { residentBytes } from './process-memory.ts'

/** Why the server stopped a worker in the middle of a job. */
export type KillReason = 'timeout' | 'memory' | 'shutdown'

/** The worker ended before answering: killed by the server (with its reason), or on its own (a crash). */
export class WorkerEnded extends Error {
  constructor(
    readonly reason: KillReason | 'crash',
    readonly exitCode: number | null,
    readonly signal: string | null,
  ) {
    super(`worker ended (${reason}, exit ${exitCode}, signal ${signal})`)
    this.name = 'WorkerEnded'
  }
}

interface Pending {
  readonly id: number
  readonly onBest: (best: Produced) => void
  readonly resolve: (produced: Produced) => void
  readonly reject: (error: unknown) => void
}

type JobRequest = Omit<JobMessage, 'type' | 'id'>

let nextJobId = 1

/** One worker process as the server sees it: its pipes, its job in progress, its memory. */
export class WorkerProcess {
  readonly #proc: Subprocess<'pipe', 'pipe', 'inherit'>
  readonly ready: Promise<void>
  readonly exited: Promise<void>
  #pending: Pending | undefined
  #killedFor: KillReason | undefined
  #ended = false
  /** Resident memory when it was ready and idle: what a job's use is measured from. */
  baselineBytes = 0

  constructor(command: readonly string[], env: Record<string, string>) {
    this.#proc = Bun.spawn([...command], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit', env })
    const { promise: ready, resolve: isReady, reject: neverReady } = Promise.withResolvers<void>()
    this.ready = ready
    // A worker that dies before it is ready rejects `ready`; nobody may be listening yet.
    ready.catch(() => {})
    void this.#read((message) => {
      if (message.type === 'ready') {
        this.baselineBytes = this.residentBytes() ?? 0
        isReady()
      }
    })
    this.exited = this.#proc.exited.then(() => {
      this.#ended = true
      const ended = new WorkerEnded(
        this.#killedFor ?? 'crash',
        this.#proc.exitCode,
        this.#proc.signalCode === null ? null : String(this.#proc.signalCode),
      )
      neverReady(ended)
      this.#settle((pending) => pending.reject(ended))
    })
  }

  get pid(): number {
    return this.#proc.pid
  }

  /** Gone, or being killed: it takes no more jobs. */
  get ended(): boolean {
    return this.#ended || this.#killedFor !== undefined
  }

  get busy(): boolean {
    return this.#pending !== undefined
  }

  residentBytes(): number | undefined {
    return this.#ended ? undefined : residentBytes(this.#proc.pid)
  }

  /** Sends one job; answers with what it produced, its error, or WorkerEnded if it dies first. */
  /** `overlay`: a watermark's bytes, sent as the frame's second buffer. */
  run(
    request: JobRequest,
    input: Uint8Array,
    onBest: (best: Produced) => void,
    overlay?: Uint8Array,
  ): Promise<Produced> {
    if (this.ended) return Promise.reject(new WorkerEnded(this.#killedFor ?? 'crash', null, null))
    if (this.#pending) return Promise.reject(new Error('a worker runs one job at a time'))
    const id = nextJobId++
    const { promise, resolve, reject } = Promise.withResolvers<Produced>()
    this.#pending = { id, onBest, resolve, reject }
    try {
      const buffers = overlay ? [input, overlay] : [input]
      for (const part of encodeFrame({ type: 'job', id, ...request }, buffers)) this.#proc.stdin.write(part)
      void Promise.resolve(this.#proc.stdin.flush()).catch(() => {})
    } catch {
      // The pipe broke: the worker is dying, and its exit rejects the job.
    }
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
    this.#settle((pending) => pending.reject(new WorkerEnded(reason, null, 'SIGKILL')))
  }

  #settle(finish: (pending: Pending) => void): void {
    const pending = this.#pending
    this.#pending = undefined
    if (pending) finish(pending)
  }

  async #read(onControl: (message: WorkerMessage) => void): Promise<void> {
    const reader = new FrameReader()
    try {
      for await (const chunk of this.#proc.stdout) {
        for (const { header, buffers } of reader.push(chunk)) {
          const message = header as unknown as WorkerMessage
          if (message.type === 'ready') onControl(message)
          else this.#deliver(message, buffers[0])
        }
      }
    } catch {
      // The pipe closed under a kill: the exit handler answers the job.
    }
  }

  #deliver(message: Exclude<WorkerMessage, { type: 'ready' }>, data: Uint8Array | undefined): void {
    const pending = this.#pending
    if (!pending || pending.id !== message.id) return
    if (message.type === 'best') return pending.onBest(joinProduced(message.produced, data!))
    this.#pending = undefined
    if (message.type === 'done') pending.resolve(joinProduced(message.produced, data!))
    else pending.reject(reviveError(message.error))
  }
}

import { AppError } from '../errors/app-error.ts'

export interface QueueStats {
  readonly running: number
  /** Admitted and not yet running: still uploading, being probed, or waiting for a worker. */
  readonly waiting: number
  readonly capacity: number
  /** Memory reserved by running jobs, and the budget they share. */
  readonly memoryBytes: { readonly used: number; readonly budget: number }
}

export interface QueueOptions {
  /** Jobs run at once. */
  readonly workers: number
  /** Requests admitted beyond `workers`; beyond it `admit` fails fast with OVERLOADED. */
  readonly capacity: number
  /** Memory running jobs may reserve together. */
  readonly memoryBudgetBytes: number
}

export interface RunOptions {
  /**
   * Time of work, from when the job starts: past it the caller gets PROCESSING_TIMEOUT while the
   * job keeps its slot until it really ends. Left out when the job stops itself (a worker process
   * killed at its time).
   */
  readonly timeoutMs?: number
  /** Time a job may wait for a slot; past it, 503 OVERLOADED with Retry-After (load, not the image). */
  readonly waitTimeoutMs?: number
  /** Memory the job will need at its peak; it starts only when that much is free. */
  readonly costBytes: number
}

/** A place in the queue, taken before the upload is read and given back when the request ends. */
export interface Ticket {
  run<T>(job: () => Promise<T>, options: RunOptions): Promise<T>
  release(): void
}

interface Waiter {
  readonly costBytes: number
  readonly start: () => void
}

/** A job over its own time: the image's doing, not the server's load, so not worth retrying as is. */
/** `clock`: CPU time in a worker process; time on the clock for a job run in the server's own. */
export function processingTimeout(timeoutMs: number, clock: 'cpu' | 'wall'): AppError {
  return new AppError(
    'PROCESSING_TIMEOUT',
    `expected the image to be processed within ${timeoutMs} ms of ${clock === 'cpu' ? 'CPU time' : 'work'} (IMGAPI_JOB_TIMEOUT_MS), it was not; send a smaller image, or ask for a smaller size or a lower effort`,
  )
}

/**
 * A bounded job queue. Admission is counted from the moment a request arrives, so a flood of
 * uploads is refused before any of them is buffered. A job starts when a worker is free and its
 * memory fits the budget, in arrival order; one that waits longer than its wait limit is refused
 * as load (503). A job's own time runs from its start: a job that times out in this process is
 * answered at once, but its slot and memory stay taken until the work itself ends, so a stuck
 * image can never push the server past `workers` concurrent decodes or past the memory budget
 * (a job in a worker process stops itself instead: its worker is killed).
 */
export class JobQueue {
  #admitted = 0
  #running = 0
  #usedBytes = 0
  readonly #waiting: Waiter[] = []
  #recentMs = 1000

  constructor(private readonly options: QueueOptions) {}

  get stats(): QueueStats {
    return {
      running: this.#running,
      waiting: this.#admitted - this.#running,
      capacity: this.options.capacity,
      memoryBytes: { used: this.#usedBytes, budget: this.options.memoryBudgetBytes },
    }
  }

  /** Seconds until a worker is likely free, from recent job durations; at least 1. */
  retryAfterSeconds(): number {
    const ahead = Math.max(1, this.#admitted - this.#running + 1)
    return Math.max(1, Math.ceil((this.#recentMs * ahead) / this.options.workers / 1000))
  }

  overloaded(detail: string): AppError {
    const retryAfter = this.retryAfterSeconds()
    return new AppError('OVERLOADED', `${detail}; retry in ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    })
  }

  /** Takes a place or throws OVERLOADED at once. */
  admit(): Ticket {
    const limit = this.options.workers + this.options.capacity
    if (this.#admitted >= limit) {
      throw this.overloaded(
        `all ${this.options.workers} workers are busy and ${this.#admitted - this.#running} requests are waiting (the limit)`,
      )
    }
    this.#admitted++
    // The place is given back when the request has ended and its job (if it ran one) has
    // ended too: a job that timed out keeps running, and keeps its place, until libvips stops.
    let holds = 1
    let released = false
    let used = false
    const letGo = () => {
      if (--holds === 0) this.#admitted--
    }
    return {
      run: (job, options) => {
        if (used) throw new Error('a ticket runs one job')
        used = true
        holds++
        return this.#run(job, options, letGo)
      },
      release: () => {
        if (released) return
        released = true
        letGo()
      },
    }
  }

  /** Admits and runs one job, for callers that have no request to hold a ticket for. */
  async run<T>(job: () => Promise<T>, options: RunOptions): Promise<T> {
    const ticket = this.admit()
    try {
      return await ticket.run(job, options)
    } finally {
      ticket.release()
    }
  }

  #fits(costBytes: number): boolean {
    return (
      this.#running < this.options.workers &&
      (this.#running === 0 || this.#usedBytes + costBytes <= this.options.memoryBudgetBytes)
    )
  }

  #run<T>(job: () => Promise<T>, options: RunOptions, ended: () => void): Promise<T> {
    const { timeoutMs, waitTimeoutMs, costBytes } = options
    return new Promise<T>((resolve, reject) => {
      let settled = false
      let workTimer: ReturnType<typeof setTimeout> | undefined
      const waitTimer =
        waitTimeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              const index = this.#waiting.indexOf(waiter)
              if (index === -1) return
              this.#waiting.splice(index, 1)
              settled = true
              ended()
              reject(this.overloaded(`waited ${waitTimeoutMs} ms for a worker, all busy (the queue's limit)`))
            }, waitTimeoutMs)
      const waiter: Waiter = {
        costBytes,
        start: () => {
          clearTimeout(waitTimer)
          this.#running++
          this.#usedBytes += costBytes
          const began = performance.now()
          if (timeoutMs !== undefined) {
            workTimer = setTimeout(() => {
              settled = true
              reject(processingTimeout(timeoutMs, 'wall'))
            }, timeoutMs)
          }
          job()
            .then(
              (value) => !settled && resolve(value),
              (error) => !settled && reject(error),
            )
            .finally(() => {
              settled = true
              clearTimeout(workTimer)
              this.#recentMs = this.#recentMs * 0.8 + (performance.now() - began) * 0.2
              this.#running--
              this.#usedBytes -= costBytes
              ended()
              this.#startWaiting()
            })
        },
      }
      this.#waiting.push(waiter)
      this.#startWaiting()
    })
  }

  /** Starts waiting jobs in arrival order while the head one fits: no overtaking, no starvation. */
  #startWaiting(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.costBytes)) this.#waiting.shift()!.start()
  }
}

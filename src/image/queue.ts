import { AppError } from '../errors/app-error.ts'

export interface QueueStats {
  readonly running: number
  readonly waiting: number
  readonly capacity: number
}

export interface QueueOptions {
  /** Jobs run at once. */
  readonly workers: number
  /** Jobs allowed to wait for a worker; beyond it `run` fails fast with OVERLOADED. */
  readonly capacity: number
}

type Waiter = () => void

/**
 * A bounded job queue. A job that times out is answered at once, but its worker slot stays
 * taken until the work itself ends, so a stuck image can never push the server past
 * `workers` concurrent decodes.
 */
export class JobQueue {
  #running = 0
  readonly #waiting: Waiter[] = []
  #recentMs = 1000

  constructor(private readonly options: QueueOptions) {}

  get stats(): QueueStats {
    return { running: this.#running, waiting: this.#waiting.length, capacity: this.options.capacity }
  }

  /** Seconds until a worker is likely free, from recent job durations; at least 1. */
  retryAfterSeconds(): number {
    const ahead = this.#waiting.length + 1
    return Math.max(1, Math.ceil((this.#recentMs * ahead) / this.options.workers / 1000))
  }

  run<T>(job: () => Promise<T>, timeoutMs: number): Promise<T> {
    if (this.#running >= this.options.workers && this.#waiting.length >= this.options.capacity) {
      const retryAfter = this.retryAfterSeconds()
      return Promise.reject(
        new AppError(
          'OVERLOADED',
          `all ${this.options.workers} workers are busy and ${this.#waiting.length} jobs are waiting (the limit); retry in ${retryAfter} s`,
          { headers: { 'retry-after': String(retryAfter) } },
        ),
      )
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false
      const timer = setTimeout(() => {
        settled = true
        const index = this.#waiting.indexOf(waiter)
        if (index !== -1) this.#waiting.splice(index, 1)
        reject(
          new AppError(
            'PROCESSING_TIMEOUT',
            `expected the image to be processed within ${timeoutMs} ms, it was not`,
          ),
        )
      }, timeoutMs)
      const waiter: Waiter = () => {
        this.#running++
        const began = performance.now()
        job()
          .then(
            (value) => !settled && resolve(value),
            (error) => !settled && reject(error),
          )
          .finally(() => {
            settled = true
            clearTimeout(timer)
            this.#recentMs = this.#recentMs * 0.8 + (performance.now() - began) * 0.2
            this.#running--
            this.#next()
          })
      }
      if (this.#running < this.options.workers) waiter()
      else this.#waiting.push(waiter)
    })
  }

  #next(): void {
    this.#waiting.shift()?.()
  }
}

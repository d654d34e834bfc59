/*
 * The batch engine every tool runs its files through: one POST /api/compress per job (or per
 * group of jobs sent `together`, as the variants of one request, at most maxVariants), at most
 * `concurrency()` in flight (the server's workers), a 429 or 503 with Retry-After waited out and
 * retried (the whole batch pauses: the server asked for room), a request with no answer at all
 * held until the server answers again (a restart must not cost the rest of the batch), each job
 * cancellable, and every change reported so the page can show it and announce it.
 */
import { mayPassAgain, problemOf, retryAfterSeconds, type Problem } from '../api/problem.ts'
import { Aborted, type Answer } from '../api/send.ts'
import type { Job, JobInput, JobResult, Status } from './job.ts'
import { resultOf } from './result.ts'
import { ServerWatch } from './server-watch.ts'
import { requestOf, sendJobs } from './together.ts'
import { variantOutcomes } from './variants-answer.ts'

export type { Job, JobInput, JobResult, Status } from './job.ts'
export { limitedByClient, originalBytes } from './job.ts'

export interface BatchOptions {
  readonly language: string
  concurrency(): number
  /** Entries one request's `variants` may list at most (the server's limits.maxVariants). */
  maxVariants(): number
  extensionOf(format: string): string
  /** A file over the server's upload limit fails here, before a byte is sent. */
  maxUploadBytes(): number
  tooLarge(size: number, limit: number): Problem
  networkProblem(): Problem
  /** Whether the server answers now (GET /api/health), asked while it does not. */
  reachable(): Promise<boolean>
  /** This server asks for an API key; then nothing is sent without one it has not refused. */
  readonly keyRequired: boolean
  /** The key the reader gave, as requests send it. */
  currentKey(): string | undefined
  onChange(job?: Job): void
  /**
   * After this many tries, a job fails: refused with Retry-After each time (with the last
   * refusal), or unanswered each time while the server itself answers (with networkProblem).
   */
  readonly maxAttempts?: number
}

export class Batch {
  readonly jobs: Job[] = []
  #nextId = 1
  #running = 0
  #pausedUntil = 0
  #timer: ReturnType<typeof setTimeout> | undefined
  readonly #server: ServerWatch
  /** The key a 401 answered: files wait for another, or for the reader to give it again. */
  #refusedKey: string | undefined

  constructor(private readonly options: BatchOptions) {
    this.#server = new ServerWatch(options.reachable, () => this.#reconnected())
  }

  /** The server stopped answering: nothing is sent until it answers again. */
  get serverDown(): boolean {
    return this.#server.down
  }

  add(inputs: readonly JobInput[]): Job[] {
    const added = inputs.map((input): Job => ({
      ...input,
      id: this.#nextId++,
      status: 'queued',
      uploaded: 0,
      attempts: 0,
    }))
    for (const job of added) {
      const limit = this.options.maxUploadBytes()
      // What a url names is measured by the server as it fetches it.
      const bytes = (job.file?.size ?? 0) + (job.overlay?.blob.size ?? 0)
      if (job.refused) this.#fail(job, job.refused)
      else if (bytes > limit) this.#fail(job, this.options.tooLarge(bytes, limit))
    }
    this.jobs.push(...added)
    this.options.onChange()
    this.#pump()
    return added
  }

  cancel(job: Job): void {
    if (job.status === 'done' || job.status === 'failed' || job.status === 'cancelled') return
    job.status = 'cancelled'
    // A request that carries other jobs still wanted goes on; their answers are kept.
    const { sending } = job
    if (sending && !this.jobs.some((other) => other.sending === sending && other.status !== 'cancelled'))
      sending.abort()
    this.options.onChange(job)
  }

  cancelAll(): void {
    for (const job of this.jobs) this.cancel(job)
  }

  retry(job: Job): void {
    if (job.status !== 'failed' && job.status !== 'cancelled') return
    this.resend(job, job.query)
  }

  /** The failed jobs a second try may get past (see mayPassAgain): what "try again" resends. */
  get retryable(): Job[] {
    return this.jobs.filter((job) => job.status === 'failed' && job.problem && mayPassAgain(job.problem))
  }

  retryFailed(): void {
    for (const job of this.retryable) this.resend(job, job.query)
  }

  /** The reader gave a key (perhaps the refused one again, after the server's keys changed). */
  keyGiven(): void {
    this.#refusedKey = undefined
    for (const job of this.jobs) if (job.status === 'needsKey') job.status = 'queued'
    this.options.onChange()
    this.#pump()
  }

  /** Nothing can be sent: the server asks for a key, and there is none it has not refused. */
  get #keyMissing(): boolean {
    const key = this.options.currentKey()
    return this.options.keyRequired && (!key || key === this.#refusedKey)
  }

  /** Sends a settled job again, with other options: what its card offers when the result fell short. */
  resend(job: Job, query: URLSearchParams): void {
    if (!['done', 'failed', 'cancelled'].includes(job.status)) return
    Object.assign(job, {
      query,
      status: 'queued',
      uploaded: 0,
      attempts: 0,
      problem: undefined,
      result: undefined,
    })
    this.options.onChange(job)
    this.#pump()
  }

  clear(): void {
    this.cancelAll()
    this.#server.stop()
    this.jobs.length = 0
    this.options.onChange()
  }

  /** Jobs still to finish: queued, sending or waiting out a Retry-After. */
  get pending(): number {
    return this.jobs.filter((job) => !['done', 'failed', 'cancelled'].includes(job.status)).length
  }

  #ready(job: Job, now: number): boolean {
    return job.status === 'queued' || (job.status === 'waiting' && (job.retryAt ?? 0) <= now)
  }

  /** The jobs of the next request: the first job ready, with those it goes together with. */
  #next(now: number): Job[] | undefined {
    const ready = this.jobs.filter((job) => this.#ready(job, now))
    const most = Math.min(this.options.maxVariants(), ready[0]?.mostTogether ?? Infinity)
    return ready[0] && requestOf(ready, most)
  }

  #pump(): void {
    clearTimeout(this.#timer)
    if (this.#server.down) return
    if (this.#keyMissing) return this.#holdForKey()
    const now = Date.now()
    if (now < this.#pausedUntil) {
      this.#timer = setTimeout(() => this.#pump(), this.#pausedUntil - now)
      return
    }
    while (this.#running < this.options.concurrency()) {
      const jobs = this.#next(now)
      if (!jobs) break
      this.#running++
      void this.#run(jobs).finally(() => {
        this.#running--
        this.#pump()
      })
    }
    const waiting = this.jobs.filter((job) => job.status === 'waiting').map((job) => job.retryAt ?? now)
    if (waiting.length > 0 && this.#running < this.options.concurrency())
      this.#timer = setTimeout(() => this.#pump(), Math.max(0, Math.min(...waiting) - now))
  }

  async #run(jobs: readonly Job[]): Promise<void> {
    const key = this.options.currentKey()
    const first = jobs[0]!
    for (const job of jobs) {
      // An image named by its address has nothing to upload: the server's work starts at once.
      job.status = job.file ? 'uploading' : 'processing'
      job.uploaded = 0
      job.attempts++
      this.options.onChange(job)
    }
    const hooks = {
      onUpload: (sent: number, total: number) => {
        for (const job of jobs) job.uploaded = total > 0 ? sent / total : 1
        this.options.onChange()
      },
      onUploaded: () => {
        for (const job of jobs) {
          if (job.status !== 'uploading') continue
          job.status = 'processing'
          job.uploaded = 1
          this.options.onChange(job)
        }
      },
    }
    const sending = sendJobs(jobs, this.options.language, hooks)
    for (const job of jobs) job.sending = sending
    const live = () => jobs.filter((job) => (job.status as Status) !== 'cancelled')
    let answer: Answer
    try {
      answer = await sending.answer
    } catch (error) {
      if (!(error instanceof Aborted)) for (const job of live()) this.#unanswered(job)
      return
    } finally {
      for (const job of jobs) job.sending = undefined
    }
    if (live().length === 0) return
    if (answer.status === 200) return this.#finishAll(jobs, answer)
    const problem = await problemOf(answer)
    if (jobs.length > 1 && problem.code === 'IMAGE_TOO_LARGE') return this.#split(live())
    if (answer.status === 401 && this.options.keyRequired) {
      // Refused for its key: it waits with the rest for another one.
      this.#refusedKey = key
      for (const job of live()) {
        job.problem = problem
        job.status = 'needsKey'
        this.options.onChange(job)
      }
      return
    }
    const wait = retryAfterSeconds(answer)
    if (wait !== undefined && first.attempts < this.#maxAttempts) {
      const retryAt = Date.now() + wait * 1000
      this.#pausedUntil = Math.max(this.#pausedUntil, retryAt)
      for (const job of live()) {
        job.status = 'waiting'
        job.retryAt = retryAt
        job.problem = problem
        this.options.onChange(job)
      }
      return
    }
    for (const job of live()) this.#fail(job, problem)
  }

  /**
   * Refused as too large together (their output pixels add up past what one request may make,
   * though each may be made alone): sent again in halves, down to one, which says the last word.
   */
  #split(jobs: readonly Job[]): void {
    for (const job of jobs) {
      job.mostTogether = Math.ceil(jobs.length / 2)
      job.status = 'queued'
      job.attempts--
      this.options.onChange(job)
    }
  }

  /** What is still to send waits for a key, saying so on its card. */
  #holdForKey(): void {
    const held = this.jobs.filter((job) => job.status === 'queued' || job.status === 'waiting')
    for (const job of held) job.status = 'needsKey'
    if (held.length > 0) this.options.onChange(held[0])
  }

  /** No answer at all: the server is restarting or the connection is down, so the job waits for it. */
  #unanswered(job: Job): void {
    if (job.attempts >= this.#maxAttempts) return this.#fail(job, this.options.networkProblem())
    job.status = 'offline'
    this.#server.lost()
    this.options.onChange(job)
  }

  /** The server answers again: what waited for it is sent, in its order. */
  #reconnected(): void {
    for (const job of this.jobs) if (job.status === 'offline') job.status = 'queued'
    this.options.onChange()
    this.#pump()
  }

  get #maxAttempts(): number {
    return this.options.maxAttempts ?? 8
  }

  /** Each job's image (or, sent together, its own problem), made over by the page if it asks. */
  async #finishAll(jobs: readonly Job[], answer: Answer): Promise<void> {
    const { extensionOf } = this.options
    let outcomes: readonly ({ result: JobResult } | { problem: Problem })[]
    try {
      outcomes =
        jobs.length === 1
          ? [{ result: resultOf(jobs[0]!, answer, extensionOf) }]
          : await variantOutcomes(jobs, answer, extensionOf)
    } catch {
      // Not the JSON a request with variants is answered with: a proxy's page, say.
      outcomes = jobs.map(() => ({ problem: { code: 'INTERNAL', title: String(answer.status) } }))
    }
    await Promise.all(
      jobs.map(async (job, index) => {
        const outcome = outcomes[index]!
        if ((job.status as Status) === 'cancelled') return
        if ('problem' in outcome) return this.#fail(job, outcome.problem)
        this.#finish(job, job.afterward ? await job.afterward(outcome.result) : outcome.result)
      }),
    )
  }

  #finish(job: Job, result: JobResult): void {
    job.result = result
    job.problem = undefined
    job.status = 'done'
    this.options.onChange(job)
  }

  #fail(job: Job, problem: Problem): void {
    job.problem = problem
    job.status = 'failed'
    this.options.onChange(job)
  }
}

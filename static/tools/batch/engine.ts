import { problemOf, retryAfterSeconds, type Problem } from '../api/problem.ts'
import { Aborted, postImage, type Answer, type Sending } from '../api/send.ts'

/**
 * The batch engine every tool runs its files through: one POST /api/compress per job, at most
 * `concurrency()` in flight (the server's workers), a 429 or 503 with Retry-After waited out and
 * retried (the whole batch pauses: the server asked for room), each job cancellable, and every
 * change reported so the page can show it and announce it.
 */
export type Status = 'queued' | 'uploading' | 'processing' | 'waiting' | 'done' | 'failed' | 'cancelled'

export interface JobResult {
  readonly blob: Blob
  /** The result's path in a download: the input's path with the output's extension. */
  readonly name: string
  readonly format: string
  readonly originalFormat: string
  readonly width: number
  readonly height: number
  readonly quality: string | null
  readonly similarity: string | null
  readonly kind: string | null
  readonly resizedToFit: string | null
}

export interface JobInput {
  readonly file: Blob
  /** Where the file came from, sub-folders kept: photos/2024/a.jpg. */
  readonly path: string
  readonly query: URLSearchParams
  /** The result's name from its format's extension; by default the path with that extension. */
  readonly name?: (extension: string) => string
  /** What the job stands for in a generator (a width and a format), for its own bookkeeping. */
  readonly tag?: string
  /** How the list names the job before it has a result; by default its path. */
  readonly label?: string
  /** Why the page itself cannot send this file; it is listed as failed, with this reason. */
  readonly refused?: Problem
  /** A watermark sent beside the image (the multipart field `overlay`), and its file's name. */
  readonly overlay?: { readonly blob: Blob; readonly name: string }
}

export interface Job extends JobInput {
  readonly id: number
  status: Status
  /** Share of the upload done, 0 to 1. */
  uploaded: number
  attempts: number
  retryAt?: number
  result?: JobResult
  problem?: Problem
  sending?: Sending
}

export interface BatchOptions {
  readonly language: string
  concurrency(): number
  extensionOf(format: string): string
  /** A file over the server's upload limit fails here, before a byte is sent. */
  maxUploadBytes(): number
  tooLarge(size: number, limit: number): Problem
  networkProblem(): Problem
  onChange(job?: Job): void
  /** After this many refusals with Retry-After, a job fails with the last one. */
  readonly maxAttempts?: number
}

const replaceExtension = (path: string, extension: string) => `${path.replace(/\.[^./]*$/, '')}.${extension}`

export class Batch {
  readonly jobs: Job[] = []
  #nextId = 1
  #running = 0
  #pausedUntil = 0
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly options: BatchOptions) {}

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
      if (job.refused) this.#fail(job, job.refused)
      else if (job.file.size + (job.overlay?.blob.size ?? 0) > limit)
        this.#fail(job, this.options.tooLarge(job.file.size + (job.overlay?.blob.size ?? 0), limit))
    }
    this.jobs.push(...added)
    this.options.onChange()
    this.#pump()
    return added
  }

  cancel(job: Job): void {
    if (job.status === 'done' || job.status === 'failed' || job.status === 'cancelled') return
    job.status = 'cancelled'
    job.sending?.abort()
    this.options.onChange(job)
  }

  cancelAll(): void {
    for (const job of this.jobs) this.cancel(job)
  }

  retry(job: Job): void {
    if (job.status !== 'failed' && job.status !== 'cancelled') return
    Object.assign(job, { status: 'queued', uploaded: 0, attempts: 0, problem: undefined })
    this.options.onChange(job)
    this.#pump()
  }

  clear(): void {
    this.cancelAll()
    this.jobs.length = 0
    this.options.onChange()
  }

  /** Jobs still to finish: queued, sending or waiting out a Retry-After. */
  get pending(): number {
    return this.jobs.filter((job) => !['done', 'failed', 'cancelled'].includes(job.status)).length
  }

  #next(now: number): Job | undefined {
    return this.jobs.find(
      (job) => job.status === 'queued' || (job.status === 'waiting' && (job.retryAt ?? 0) <= now),
    )
  }

  #pump(): void {
    clearTimeout(this.#timer)
    const now = Date.now()
    if (now < this.#pausedUntil) {
      this.#timer = setTimeout(() => this.#pump(), this.#pausedUntil - now)
      return
    }
    while (this.#running < this.options.concurrency()) {
      const job = this.#next(now)
      if (!job) break
      this.#running++
      void this.#run(job).finally(() => {
        this.#running--
        this.#pump()
      })
    }
    const waiting = this.jobs.filter((job) => job.status === 'waiting').map((job) => job.retryAt ?? now)
    if (waiting.length > 0 && this.#running < this.options.concurrency())
      this.#timer = setTimeout(() => this.#pump(), Math.max(0, Math.min(...waiting) - now))
  }

  async #run(job: Job): Promise<void> {
    job.status = 'uploading'
    job.uploaded = 0
    job.attempts++
    this.options.onChange(job)
    const hooks = {
      onUpload: (sent: number, total: number) => {
        job.uploaded = total > 0 ? sent / total : 1
        this.options.onChange()
      },
      onUploaded: () => {
        if (job.status !== 'uploading') return
        job.status = 'processing'
        job.uploaded = 1
        this.options.onChange(job)
      },
    }
    const sending = postImage(job.file, job.query, this.options.language, hooks, job.overlay?.blob)
    job.sending = sending
    let answer: Answer
    try {
      answer = await sending.answer
    } catch (error) {
      if (!(error instanceof Aborted) && (job.status as Status) !== 'cancelled')
        this.#fail(job, this.options.networkProblem())
      return
    } finally {
      job.sending = undefined
    }
    if ((job.status as Status) === 'cancelled') return
    if (answer.status === 200) return this.#finish(job, answer)
    const wait = retryAfterSeconds(answer)
    if (wait !== undefined && job.attempts < (this.options.maxAttempts ?? 8)) {
      job.status = 'waiting'
      job.retryAt = Date.now() + wait * 1000
      job.problem = await problemOf(answer)
      this.#pausedUntil = Math.max(this.#pausedUntil, job.retryAt)
      this.options.onChange(job)
      return
    }
    this.#fail(job, await problemOf(answer))
  }

  #finish(job: Job, answer: Answer): void {
    const format = answer.header('x-output-format') ?? ''
    const extension = this.options.extensionOf(format)
    job.result = {
      blob: answer.body,
      name: job.name ? job.name(extension) : replaceExtension(job.path, extension),
      format,
      originalFormat: answer.header('x-original-format') ?? '',
      width: Number(answer.header('x-image-width')),
      height: Number(answer.header('x-image-height')),
      quality: answer.header('x-quality'),
      similarity: answer.header('x-similarity'),
      kind: answer.header('x-result'),
      resizedToFit: answer.header('x-resized-to-fit'),
    }
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

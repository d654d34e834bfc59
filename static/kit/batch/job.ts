/*
 * A file of a batch (or an image the server fetches from its address): what it is sent as, where
 * it is, and what came of it; engine.ts runs it.
 */
import type { Problem } from '../api/problem.ts'
import type { Sending } from '../api/send.ts'

export type Status =
  | 'queued'
  | 'uploading'
  | 'processing'
  | 'waiting'
  /** Sent and not answered: it waits for the server to answer again. */
  | 'offline'
  /** The server asks for a key, and none (or one it refused) is given: it waits for one. */
  | 'needsKey'
  | 'done'
  | 'failed'
  | 'cancelled'

export interface JobResult {
  readonly blob: Blob
  /** The original's bytes, as the server counted them (X-Original-Size). */
  readonly originalSize: number
  /** The result's path in a download: the input's path with the output's extension (and density). */
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
  /** The image from this device; none when the server fetches it from `url`. */
  readonly file?: Blob
  /** The image's address, sent as the option url: the server fetches it, nothing is uploaded. */
  readonly url?: string
  /** Where the file came from, sub-folders kept: photos/2024/a.jpg; for a url, its file name. */
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
  /**
   * Sent with the other such jobs of the same image and the same shared options as the
   * `variants` of one request (the image uploaded once); `query` is still the job's request alone.
   */
  readonly together?: boolean
  /** What the page makes of the server's result before it is shown (an icon laid on a colour). */
  readonly afterward?: (result: JobResult) => Promise<JobResult>
}

export interface Job extends JobInput {
  readonly id: number
  /** The options it is sent with: the input's, or others it was sent again with. */
  query: URLSearchParams
  status: Status
  /** Share of the upload done, 0 to 1. */
  uploaded: number
  attempts: number
  retryAt?: number
  /** Jobs it may go together with at most, once a request of more was too large (engine.ts). */
  mostTogether?: number
  result?: JobResult
  problem?: Problem
  sending?: Sending
}

/**
 * A wait the client's own limit asks for (429: its requests or its jobs at once), not a busy
 * server (503): said apart, since only the reader's pace brings it on.
 */
export const limitedByClient = (job: Job): boolean => job.status === 'waiting' && job.problem?.status === 429

/** The original's bytes: the file's, or once done what the server fetched; 0 while unknown. */
export const originalBytes = (job: Job): number => job.file?.size ?? job.result?.originalSize ?? 0

import { AppError, isAppError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue.ts'
import type { DecoderSettings } from '../image/decoders/index.ts'
import type { PipelineOptions } from '../image/pipeline.ts'
import type { JobPlan } from '../image/plan.ts'
import type { ImageProbe } from '../image/probe.ts'
import type { Produced } from '../image/produce.ts'

/*
 * What the server and a worker say to each other, as frame headers (frames.ts). Everything
 * here is plain JSON; image bytes travel as the frame's buffers.
 */

/** The environment variable that carries a worker's settings from the server that starts it. */
export const WORKER_CONFIG_ENV = 'IMGAPI_WORKER_CONFIG'

/** What a worker needs to know of the server's settings, given at spawn (IMGAPI_WORKER_CONFIG). */
export interface WorkerConfig extends DecoderSettings {
  readonly libDir: string
  /** Freed memory the worker may keep for its next job; beyond it, it gives memory back after each job. */
  readonly keepBytes: number
}

/** One job: the input's bytes are the frame's first buffer, a watermark's its second. */
export interface JobMessage {
  readonly type: 'job'
  readonly id: number
  readonly probe: ImageProbe
  /** One entry per output (several for variants), each the plans to produce it from. */
  readonly parts: readonly (readonly JobPlan[])[]
  readonly pipeline: Omit<PipelineOptions, 'overlay'>
  /** How many parts run at once: what admission counted memory for. */
  readonly concurrency: number
  /** The job's time, from when the worker starts it: the search ends its work before 70% of it. */
  readonly timeoutMs: number
}

/** A produced image without its bytes, which follow as the frame's buffer. */
export type ProducedFacts = Omit<Produced, 'encoded'> & {
  readonly encoded: Omit<Produced['encoded'], 'data'>
}

/** Asks an idle worker to answer `pong`: one that does not is frozen or stuck, and is replaced. */
export interface PingMessage {
  readonly type: 'ping'
}

/**
 * `retiring` on a job's answer: the worker exits after sending it (its memory grew past what it
 * may keep), so the server gives it no other job and starts its successor.
 */
export type WorkerMessage =
  | { readonly type: 'ready'; readonly pid: number }
  /** The job's frame has been read whole and its work begins. */
  | { readonly type: 'started'; readonly id: number }
  | { readonly type: 'pong' }
  /** A search's best answer so far that meets the request, kept by the server against a kill. */
  | { readonly type: 'best'; readonly id: number; readonly part: number; readonly produced: ProducedFacts }
  /** One part finished: its image (bytes as the frame's buffer) or its error, sent at once. */
  | PartMessage
  /** Every part has been sent. */
  | { readonly type: 'done'; readonly id: number; readonly retiring?: true }
  /** The job as a whole failed (a fault of the server's, not of one part). */
  | { readonly type: 'failed'; readonly id: number; readonly error: SerialError; readonly retiring?: true }

export type PartMessage = {
  readonly type: 'part'
  readonly id: number
  readonly part: number
} & ({ readonly produced: ProducedFacts } | { readonly error: SerialError })

export interface SerialError {
  readonly code: ErrorCode
  readonly detail: string
  readonly errors?: AppError['errors']
  readonly omittedErrors?: number
  readonly headers?: Readonly<Record<string, string>>
  readonly smallestBytes?: number
  /** Internal: the original message (libvips text, a stack), for the server's log only. */
  readonly cause?: string
}

export function serialiseError(error: unknown): SerialError {
  const cause = error instanceof Error ? (error.stack ?? error.message) : String(error)
  if (!isAppError(error)) return { code: 'INTERNAL', detail: 'an unexpected error occurred', cause }
  const inner = error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : undefined
  return {
    code: error.code,
    detail: error.detail,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.omittedErrors ? { omittedErrors: error.omittedErrors } : {}),
    ...(Object.keys(error.headers).length ? { headers: error.headers } : {}),
    ...(error.smallestBytes !== undefined ? { smallestBytes: error.smallestBytes } : {}),
    ...(inner ? { cause: inner } : {}),
  }
}

/** The error as the server raises it; an INTERNAL one keeps the worker's text as its cause, for the log. */
export function reviveError(error: SerialError): AppError {
  return new AppError(error.code, error.detail, {
    errors: error.errors,
    omittedErrors: error.omittedErrors,
    headers: error.headers,
    smallestBytes: error.smallestBytes,
    cause: error.cause === undefined ? undefined : new Error(`in a worker: ${error.cause}`),
  })
}

export function splitProduced(produced: Produced): { facts: ProducedFacts; data: Uint8Array } {
  const { data, ...encoded } = produced.encoded
  return { facts: { ...produced, encoded }, data }
}

export function joinProduced(facts: ProducedFacts, data: Uint8Array): Produced {
  return { ...facts, encoded: { ...facts.encoded, data } }
}

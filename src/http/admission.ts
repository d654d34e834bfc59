import type { Config } from '../config.ts'
import { AppError } from '../errors/app-error.ts'
import type { JobQueue, Ticket } from '../image/queue.ts'
import type { Metrics } from '../metrics/metrics.ts'
import type { ClientJobs } from './client-jobs.ts'
import { maxBodyBytes } from './read-body.ts'
import { metaOf } from './request-meta.ts'
import { reclaimSoon } from './reclaim.ts'
import { unreadBodyHeaders } from './unread-body.ts'
import type { UploadBudget } from './upload-budget.ts'

/** What the door takes places from: the app's counters and its upload limit. */
export interface AdmissionContext {
  readonly config: Pick<Config, 'maxUploadBytes'>
  readonly clientJobs: ClientJobs
  readonly queue: Pick<JobQueue, 'admit' | 'retryAfterSeconds' | 'overloaded'>
  readonly uploads: UploadBudget
  readonly metrics: Pick<Metrics, 'rateLimited'>
}

export interface Admission {
  readonly ticket: Ticket
  /** Gives back the queue place and the upload reservation; safe to call more than once. */
  release(): void
}

/**
 * The door of the compress endpoint, passed before a byte of the body is read: room under the
 * client's own cap of requests in progress (else 429), a place in the queue, and room in the
 * upload budget for the declared Content-Length, or the largest allowed body when it is
 * chunked (else 503). Every refusal is immediate, with Retry-After; its unread body is drained
 * or its connection closed (see unread-body.ts).
 */
export function admit(context: AdmissionContext, request: Request): Admission {
  const close = unreadBodyHeaders(request, context.config.maxUploadBytes)
  const client = metaOf(request).client?.limiterKey ?? 'unknown'
  const leaveClient = context.clientJobs.enter(client)
  if (!leaveClient) {
    context.metrics.rateLimited('client_jobs')
    const retryAfter = String(context.queue.retryAfterSeconds())
    throw new AppError(
      'RATE_LIMITED',
      `expected at most ${context.clientJobs.cap} compress requests in progress at once from one client, received one more; retry in ${retryAfter} s`,
      { headers: { 'retry-after': retryAfter, ...close } },
    )
  }
  try {
    return admitToQueue(context, request, leaveClient)
  } catch (error) {
    leaveClient()
    throw error
  }
}

function admitToQueue(context: AdmissionContext, request: Request, leaveClient: () => void): Admission {
  const close = unreadBodyHeaders(request, context.config.maxUploadBytes)
  let ticket: Ticket
  try {
    ticket = context.queue.admit()
  } catch (error) {
    if (error instanceof AppError)
      throw new AppError(error.code, error.detail, { headers: { ...error.headers, ...close } })
    throw error
  }
  const declared = Number(request.headers.get('content-length') ?? NaN)
  const limit = maxBodyBytes(request, context.config.maxUploadBytes)
  const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limit) : limit
  const releaseUpload = context.uploads.reserve(bytes)
  if (!releaseUpload) {
    ticket.release()
    const overloaded = context.queue.overloaded(
      `the upload budget of ${context.uploads.budgetBytes} bytes is taken by uploads in progress (${context.uploads.usedBytes} bytes) and this one may need ${bytes}`,
    )
    throw new AppError('OVERLOADED', overloaded.detail, { headers: { ...overloaded.headers, ...close } })
  }
  let released = false
  return {
    ticket,
    release: () => {
      if (released) return
      released = true
      ticket.release()
      releaseUpload()
      leaveClient()
      reclaimSoon(bytes)
    },
  }
}

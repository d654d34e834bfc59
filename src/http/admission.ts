import type { AppContext } from '../app-context.ts'
import { AppError } from '../errors/app-error.ts'
import type { Ticket } from '../image/queue.ts'
import { maxBodyBytes } from './read-body.ts'
import { reclaimSoon } from './reclaim.ts'

export interface Admission {
  readonly ticket: Ticket
  /** Gives back the queue place and the upload reservation; safe to call more than once. */
  release(): void
}

/**
 * The door of the compress endpoint, passed before a byte of the body is read: a place in
 * the queue, and room in the upload budget for the declared Content-Length (or the largest
 * allowed body, when it is chunked). Either refusal is an immediate 503 with Retry-After, on a
 * connection that is then closed, since its body will never be read.
 */
export function admit(context: AppContext, request: Request): Admission {
  const close = { connection: 'close' }
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
      reclaimSoon(bytes)
    },
  }
}

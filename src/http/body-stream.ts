import { AppError } from '../errors/app-error.ts'
import { chunksWithin, StreamEnded } from '../streams/chunks-within.ts'
import { RECLAIM_FROM_BYTES, reclaimSoon } from './reclaim.ts'
import { unreadBodyHeaders } from './unread-body.ts'

/**
 * Reading a request body under three bounds: its size, its time, and the client going away.
 * Each ends the read at once and says which one it was.
 */
export interface BodyBounds {
  /** Most bytes accepted; one more and the read stops with PAYLOAD_TOO_LARGE. */
  readonly limitBytes: number
  /** The upload limit callers know about, for the error text. */
  readonly maxUploadBytes: number
  /** Monotonic time (performance.now()) by which the whole body must have arrived. */
  readonly deadline: number
}

/** The client closed the connection before sending its whole body. Never answered (no one listens), logged as 499. */
export class ClientClosedRequest extends Error {
  constructor(cause?: unknown) {
    super('the client closed the connection before the body was complete', { cause })
    this.name = 'ClientClosedRequest'
  }
}

// Sent with errors raised before the body was read to its end: the rest of it is unread, so
// this connection cannot carry another request.
const CLOSE = { connection: 'close' } as const

export function tooLarge(
  maxBytes: number,
  received: string,
  headers: Readonly<Record<string, string>> = CLOSE,
): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `expected an image of at most ${maxBytes} bytes, received ${received}`,
    {
      headers,
    },
  )
}

function timedOut(received: number, timeoutMs: number): AppError {
  return new AppError(
    'REQUEST_TIMEOUT',
    `expected the whole body within ${timeoutMs} ms, received ${received} bytes by then`,
    { headers: CLOSE },
  )
}

/**
 * Yields the body's chunks; throws PAYLOAD_TOO_LARGE past the limit, REQUEST_TIMEOUT past the
 * deadline and ClientClosedRequest when the client goes away. A declared Content-Length over
 * the limit is refused before a byte is read.
 */
export async function* boundedChunks(request: Request, bounds: BodyBounds): AsyncGenerator<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > bounds.limitBytes)
    throw tooLarge(
      bounds.maxUploadBytes,
      `a body of ${declared} bytes`,
      unreadBodyHeaders(request, bounds.maxUploadBytes),
    )
  if (!request.body) return
  const timeoutMs = Math.max(0, Math.round(bounds.deadline - performance.now()))
  let total = 0
  let unreported = 0
  try {
    for await (const chunk of chunksWithin(request.body, bounds.deadline)) {
      total += chunk.byteLength
      if (total > bounds.limitBytes)
        throw tooLarge(bounds.maxUploadBytes, `a body of more than ${bounds.limitBytes} bytes`)
      // Each chunk is garbage once copied: counted as it arrives, not when the body is whole,
      // so that bodies held open part-way do not pile up chunks that no collection frees.
      unreported += chunk.byteLength
      if (unreported >= RECLAIM_FROM_BYTES) {
        reclaimSoon(unreported)
        unreported = 0
      }
      yield chunk
    }
  } catch (error) {
    if (!(error instanceof StreamEnded)) throw error
    if (error.why === 'expired') throw timedOut(error.received, timeoutMs)
    throw new ClientClosedRequest(error.cause)
  }
}

/**
 * The whole body in one buffer. With a declared length the buffer is allocated once and the
 * chunks copied in as they arrive, so the body is never held twice.
 */
export async function readBoundedBody(request: Request, bounds: BodyBounds): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (Number.isSafeInteger(declared) && declared >= 0 && declared <= bounds.limitBytes) {
    const body = new Uint8Array(declared)
    let offset = 0
    for await (const chunk of boundedChunks(request, bounds)) {
      const room = Math.min(chunk.byteLength, declared - offset)
      body.set(room === chunk.byteLength ? chunk : chunk.subarray(0, room), offset)
      offset += room
    }
    return offset === declared ? body : body.subarray(0, offset)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of boundedChunks(request, bounds)) {
    chunks.push(chunk)
    total += chunk.byteLength
  }
  return Buffer.concat(chunks, total)
}

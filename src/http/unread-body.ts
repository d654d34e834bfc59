/**
 * What to do with a body left unread by an early answer (401, 413, 429, 503). Closing the
 * connection with bytes still unread makes the kernel send a reset, which can destroy the answer
 * before a proxy reads it: nginx then answers 502 instead of the JSON problem. Bun instead reads
 * and discards the rest of a declared body (no buffering, about 3 GB/s on loopback) and keeps the
 * connection, so a body of a known, bounded length is drained; a chunked body, or one declared
 * far beyond any upload this server takes, is not worth reading and its connection is closed.
 */
const CLOSE = { connection: 'close' } as const
const KEEP = {} as const

/** Bodies up to this many times the upload limit are drained rather than cut off. */
const DRAIN_FACTOR = 4

export function unreadBodyHeaders(
  request: Request,
  maxUploadBytes: number,
): Readonly<Record<string, string>> {
  const declared = request.headers.get('content-length')
  if (declared === null) return request.body ? CLOSE : KEEP
  const bytes = Number(declared)
  return Number.isSafeInteger(bytes) && bytes <= maxUploadBytes * DRAIN_FACTOR ? KEEP : CLOSE
}

/*
 * Requests as the scenarios send them, each reduced to an `Answer`: what came back (status,
 * problem code, size, Connection header) or which network error came instead, and how long it took.
 */
import type { RawResponse } from '../../tests/helpers/raw-http.ts'
import { RawConnection } from './raw-connection.ts'

export interface Answer {
  readonly status?: number
  /** The problem+json `code`, for error answers. */
  readonly code?: string
  readonly contentType?: string
  /** Bytes of the response body. */
  readonly bytes: number
  readonly body: string
  readonly connectionClose: boolean
  /** No response: 'refused', 'timeout', 'closed' (by the server, without an answer) or an errno. */
  readonly error?: string
  readonly ms: number
}

/** Long enough for the slowest allowed job (the job timeout, 30 s) plus its upload. */
export const ANSWER_TIMEOUT_MS = 45_000

export function requestHead(
  method: string,
  target: string,
  headers: Readonly<Record<string, string | number>> = {},
): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`)
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`
}

function problemCode(response: RawResponse): string | undefined {
  if (!response.headers.get('content-type')?.includes('problem+json')) return undefined
  try {
    return String(JSON.parse(response.body).code)
  } catch {
    return 'UNPARSEABLE'
  }
}

export function toAnswer(response: RawResponse, started: number): Answer {
  const code = problemCode(response)
  const contentType = response.headers.get('content-type')
  return {
    status: response.status,
    ...(code ? { code } : {}),
    ...(contentType ? { contentType } : {}),
    bytes: Buffer.byteLength(response.body, 'latin1'),
    body: response.body,
    connectionClose: response.headers.get('connection')?.toLowerCase() === 'close',
    ms: performance.now() - started,
  }
}

export function failure(error: string, started: number): Answer {
  return { error, bytes: 0, body: '', connectionClose: true, ms: performance.now() - started }
}

/**
 * Sends a request on `connection` and waits for its answer. The body is written while the
 * answer is awaited, not before, because the server may answer (503, 413) before reading it.
 */
export async function ask(
  connection: RawConnection,
  request: readonly (Uint8Array | string)[],
  started = performance.now(),
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<Answer> {
  for (const part of request) void connection.send(part)
  const response = await connection.nextResponse(timeoutMs)
  if (response) return toAnswer(response, started)
  const end = connection.end
  return failure(end ? (end.error ?? 'closed') : 'timeout', started)
}

/** One request on its own connection, closed afterwards. */
export async function askOnce(
  baseUrl: string,
  request: readonly (Uint8Array | string)[],
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<Answer> {
  const started = performance.now()
  let connection: RawConnection
  try {
    connection = await RawConnection.open(baseUrl)
  } catch (error) {
    return failure(errorCode(error, 'refused'), started)
  }
  try {
    return await ask(connection, request, started, timeoutMs)
  } finally {
    connection.close()
  }
}

export function errorCode(error: unknown, fallback: string): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? fallback
}

/** POST /api/compress with a raw body on its own connection. */
export function postImage(baseUrl: string, query: string, body: Uint8Array): Promise<Answer> {
  const head = requestHead('POST', `/api/compress?${query}`, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': body.byteLength,
    Connection: 'close',
  })
  return askOnce(baseUrl, [head, body])
}

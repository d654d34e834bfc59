import type { Answer } from './send.ts'

/** An answer that is not the image: the API's problem+json, or what the tools found themselves. */
export interface Problem {
  readonly code: string
  readonly title: string
  readonly detail?: string
  readonly status?: number
  /** INVALID_PARAMETER: each option refused, by its name in the API. */
  readonly errors?: readonly { readonly name: string; readonly reason: string }[]
  /** TARGET_UNREACHABLE: the smallest output the server reached, in bytes. */
  readonly smallestBytes?: number
  /** SOURCE_FAILED: the status the image's origin answered with, when it answered. */
  readonly originStatus?: number
}

export async function problemOf(answer: Answer): Promise<Problem> {
  try {
    return problemFrom(JSON.parse(await answer.body.text()) as Partial<Problem>, answer.status)
  } catch {
    return { code: `HTTP_${answer.status}`, title: String(answer.status), status: answer.status }
  }
}

/** A problem+json body (an answer's, or one variant's in a JSON answer) with its status. */
export function problemFrom(body: Partial<Problem>, status: number): Problem {
  return {
    code: body.code ?? `HTTP_${status}`,
    title: body.title ?? String(status),
    detail: body.detail,
    status,
    errors: Array.isArray(body.errors) ? body.errors : undefined,
    smallestBytes: typeof body.smallestBytes === 'number' ? body.smallestBytes : undefined,
    originStatus: typeof body.originStatus === 'number' ? body.originStatus : undefined,
  }
}

/** Seconds to wait before asking again, when the server said so (429 and 503 with Retry-After). */
export function retryAfterSeconds(answer: Answer): number | undefined {
  if (answer.status !== 429 && answer.status !== 503) return undefined
  const header = answer.header('retry-after')
  const seconds = header === null ? NaN : Number(header)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined
}

/**
 * Failures that a second try of the same file and options may get past: the connection, the
 * server's load or its own fault, a key still to give, a slow origin. The rest (a damaged file,
 * an image over the limits, an option refused, an address the server does not fetch) fail the
 * same way every time, so no page offers to retry them.
 */
const PASSING = new Set([
  'NETWORK',
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  'OVERLOADED',
  'UNAVAILABLE',
  'INTERNAL',
  'UNAUTHORIZED',
  'SOURCE_TIMEOUT',
])

/** An origin's answer that may change: its own fault or load, or no answer (a broken connection). */
const originMayRecover = (status: number | undefined) =>
  status === undefined || status >= 500 || status === 408 || status === 429

export function mayPassAgain(problem: Problem): boolean {
  if (PASSING.has(problem.code)) return true
  if (problem.code === 'SOURCE_FAILED') return originMayRecover(problem.originStatus)
  // A status with no code the API declares: only a server's fault may go away.
  return problem.code.startsWith('HTTP_') && (problem.status ?? 0) >= 500
}

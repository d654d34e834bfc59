import type { OpenAPIV3 } from 'openapi-types'
import { carriesRetryAfter, type ErrorCode } from '../errors/catalogue.ts'
import { headerDescription, type HeaderName } from '../http/headers.ts'
import { headerObject, headerObjects } from './headers.ts'

/**
 * The headers of an error response, per status, as the server really sends them (the test
 * tests/openapi/declared-headers.test.ts produces every status and compares): required when
 * every code of the status sends the header, optional when some do or only in some cases.
 */
const RATE_LIMIT_HEADERS = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const satisfies readonly HeaderName[]

/**
 * Refused before the rate limit is taken (no key, a head too large, an unreachable limit
 * store): these answers never carry the rate-limit headers. Every later answer of a limited
 * request does, when a limit is in force for the client.
 */
const BEFORE_THE_RATE_LIMIT: ReadonlySet<ErrorCode> = new Set([
  'UNAUTHORIZED',
  'HEADERS_TOO_LARGE',
  'UNAVAILABLE',
])

export interface ErrorHeaderContext {
  /** The operation has a rate limit (compress): its later answers carry the limit's headers. */
  readonly rateLimited?: boolean
}

export function errorHeaders(
  group: readonly ErrorCode[],
  context: ErrorHeaderContext,
): Record<string, OpenAPIV3.HeaderObject> {
  const headers: Record<string, OpenAPIV3.HeaderObject> = {
    // On every answer the API gives, errors included, and always no-store on a problem.
    ...headerObjects(['X-Request-Id', 'Cache-Control'], true),
  }
  if (group.some(carriesRetryAfter)) {
    headers['Retry-After'] = {
      description: headerDescription('Retry-After'),
      required: group.every(carriesRetryAfter),
      schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
    }
  }
  if (group.includes('UNAUTHORIZED'))
    headers['WWW-Authenticate'] = headerObject(
      'WWW-Authenticate',
      group.every((code) => code === 'UNAUTHORIZED'),
    )
  if (context.rateLimited && group.some((code) => !BEFORE_THE_RATE_LIMIT.has(code)))
    Object.assign(headers, headerObjects(RATE_LIMIT_HEADERS, false))
  return headers
}

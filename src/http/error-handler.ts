import { ENDPOINT_LIST } from '../endpoints.ts'
import { AppError, isAppError } from '../errors/app-error.ts'
import { clip } from '../errors/echo.ts'
import type { Logger } from '../log.ts'
import { requestPath } from './request-target.ts'

export type RouteMethods = (path: string) => readonly string[]

/** What a thrown value is turned with: the failure itself, and where it came from. */
export interface HttpErrorInput {
  /** Elysia's code for the failure (NOT_FOUND, PARSE, VALIDATION, ...) or a status. */
  readonly code: string | number
  readonly error: unknown
  readonly request: Request
  /** The methods a path has, so a known path with the wrong method is a 405, not a 404. */
  readonly methodsFor: RouteMethods
  readonly logger: Logger
  readonly requestId: string
}

/**
 * Turns whatever was thrown into a public AppError. Framework codes get their API codes;
 * anything unexpected becomes INTERNAL and is logged in full here, and only here.
 */
export function toHttpError(input: HttpErrorInput): AppError {
  const { code, error, request, methodsFor, logger, requestId } = input
  if (isAppError(error)) {
    if (error.cause)
      logger.debug('request failed', { requestId, code: error.code, cause: String(error.cause) })
    return error
  }
  const pathname = clip(requestPath(request))
  if (code === 'NOT_FOUND') {
    const allowed = methodsFor(pathname)
    if (allowed.length > 0) {
      return new AppError(
        'METHOD_NOT_ALLOWED',
        `expected ${allowed.join(' or ')} for ${pathname}, received ${clip(request.method, 16)}`,
        {
          headers: { allow: [...allowed, 'OPTIONS'].join(', ') },
        },
      )
    }
    return new AppError(
      'NOT_FOUND',
      `expected one of ${ENDPOINT_LIST}, received ${clip(request.method, 16)} ${pathname}`,
    )
  }
  if (code === 'PARSE')
    return new AppError('MALFORMED_REQUEST', 'expected a body matching its Content-Type, could not parse it')
  if (code === 'VALIDATION')
    return new AppError('INVALID_PARAMETER', 'expected valid parameters, received invalid ones')
  logger.error('internal error', {
    requestId,
    method: request.method,
    path: pathname,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  })
  return new AppError(
    'INTERNAL',
    `an unexpected error occurred; quote request id ${requestId} when reporting it`,
  )
}

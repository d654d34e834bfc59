import type { ErrorCode } from './catalogue.ts'
import { capList, clip, MAX_ECHO_CHARS } from './echo.ts'

/** One invalid field: which, what was expected, what came. */
export interface FieldError {
  readonly name: string
  readonly reason: string
}

export interface AppErrorOptions {
  errors?: readonly FieldError[]
  /** Field errors left out of `errors` to keep the response small. */
  omittedErrors?: number
  headers?: Readonly<Record<string, string>>
  /** For TARGET_UNREACHABLE: the smallest output reached, in bytes. */
  smallestBytes?: number
  cause?: unknown
}

/**
 * The only error type that crosses module boundaries. `detail` is public and must say what
 * was expected and what was received; `cause` is internal and only ever reaches the log.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly detail: string
  readonly errors?: readonly FieldError[]
  readonly omittedErrors: number
  readonly headers: Readonly<Record<string, string>>
  readonly smallestBytes?: number

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(`${code}: ${detail}`, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.detail = detail
    this.errors = options.errors
    this.omittedErrors = options.omittedErrors ?? 0
    this.headers = options.headers ?? {}
    if (options.smallestBytes !== undefined) this.smallestBytes = options.smallestBytes
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

/** One INVALID_PARAMETER for many bad fields: names clipped, the list capped, the rest counted. */
export function invalidParameters(errors: readonly FieldError[]): AppError {
  const { listed, omitted } = capList(
    errors.map((e) => ({ name: clip(e.name, MAX_ECHO_CHARS), reason: e.reason })),
  )
  const more = omitted > 0 ? `; and ${omitted} more` : ''
  return new AppError('INVALID_PARAMETER', listed.map((e) => `${e.name}: ${e.reason}`).join('; ') + more, {
    errors: listed,
    omittedErrors: omitted,
  })
}

import type { ErrorCode } from './catalogue.ts'
import { capList, clip, MAX_DETAIL_CHARS, MAX_ECHO_CHARS, MAX_REASON_CHARS } from './echo.ts'

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
  /** For SOURCE_FAILED: the HTTP status the URL source's origin answered. */
  originStatus?: number
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
  readonly originStatus?: number

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(`${code}: ${detail}`, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.detail = detail
    this.errors = options.errors
    this.omittedErrors = options.omittedErrors ?? 0
    this.headers = options.headers ?? {}
    if (options.smallestBytes !== undefined) this.smallestBytes = options.smallestBytes
    if (options.originStatus !== undefined) this.originStatus = options.originStatus
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

/**
 * One INVALID_PARAMETER for many bad fields: names clipped, reasons within their bound, the list
 * capped and the rest counted; `note`, said once after the list (the known option names).
 * Whatever the fields, the texts stay within what the OpenAPI document's Problem schema allows.
 */
export function invalidParameters(errors: readonly FieldError[], note?: string): AppError {
  const { listed, omitted } = capList(
    errors.map((e) => ({
      name: clip(e.name, MAX_ECHO_CHARS),
      reason: clip(e.reason, MAX_REASON_CHARS - 40),
    })),
  )
  const more = omitted > 0 ? `; and ${omitted} more` : ''
  const detail = listed.map((e) => `${e.name}: ${e.reason}`).join('; ') + more + (note ? `; ${note}` : '')
  return new AppError('INVALID_PARAMETER', clip(detail, MAX_DETAIL_CHARS - 40), {
    errors: listed,
    omittedErrors: omitted,
  })
}

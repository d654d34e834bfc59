import type { ErrorCode } from './catalogue.ts'

/** One invalid field: which, what was expected, what came. */
export interface FieldError {
  readonly name: string
  readonly reason: string
}

export interface AppErrorOptions {
  errors?: readonly FieldError[]
  headers?: Readonly<Record<string, string>>
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
  readonly headers: Readonly<Record<string, string>>

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(`${code}: ${detail}`, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.detail = detail
    this.errors = options.errors
    this.headers = options.headers ?? {}
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

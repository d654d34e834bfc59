/**
 * Every error the API can return, declared once: the HTTP status and whether the response
 * carries Retry-After here, the public text in locales/<lng>.json under errors.<CODE> (the edge
 * translates; i18n.ts checks that every code has its text). Codes are stable; clients may
 * switch on them.
 */
export interface ErrorSpec {
  readonly status: number
  /** The response says when to retry (Retry-After, in seconds). */
  readonly retryAfter?: true
}

export const ERROR_CATALOGUE = {
  INVALID_PARAMETER: { status: 400 },
  MISSING_FILE: { status: 400 },
  MALFORMED_REQUEST: { status: 400 },
  // The url names what this server may not fetch (its rule is named, never the address).
  URL_NOT_ALLOWED: { status: 400 },
  NOT_FOUND: { status: 404 },
  UNAUTHORIZED: { status: 401 },
  METHOD_NOT_ALLOWED: { status: 405 },
  // A variants request whose Accept allows neither container of several outputs (ZIP, JSON).
  NOT_ACCEPTABLE: { status: 406 },
  REQUEST_TIMEOUT: { status: 408 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { status: 415 },
  CORRUPT_IMAGE: { status: 422 },
  IMAGE_TOO_LARGE: { status: 422 },
  CROP_OUTSIDE_IMAGE: { status: 422 },
  TARGET_UNREACHABLE: { status: 422 },
  // The job's own cost, not the server's load: retrying the same request cannot help.
  PROCESSING_TIMEOUT: { status: 422 },
  CODEC_CRASHED: { status: 422 },
  RATE_LIMITED: { status: 429, retryAfter: true },
  HEADERS_TOO_LARGE: { status: 431 },
  OVERLOADED: { status: 503, retryAfter: true },
  // The job's worker was killed from outside the server (the OOM killer, a container runtime):
  // the machine's doing, worth a retry; the server already retried once on a fresh worker.
  WORKER_LOST: { status: 503, retryAfter: true },
  UNAVAILABLE: { status: 503, retryAfter: true },
  // The url's origin failed (its status, a connection that broke): a gateway's 502 and 504.
  SOURCE_FAILED: { status: 502 },
  SOURCE_TIMEOUT: { status: 504 },
  // store names what this server may not write: store off, a destination not configured, a key
  // leaving its prefix, two outputs on one key. Refused before any work.
  STORE_NOT_ALLOWED: { status: 400 },
  // Every output's key was taken and the request did not ask to overwrite.
  STORE_EXISTS: { status: 409 },
  // The storage took none of the outputs (down, refusing, too slow): its doing, worth a retry.
  STORE_FAILED: { status: 502, retryAfter: true },
  INTERNAL: { status: 500 },
} as const satisfies Record<string, ErrorSpec>

export type ErrorCode = keyof typeof ERROR_CATALOGUE

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[]

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status
}

export function carriesRetryAfter(code: ErrorCode): boolean {
  return (ERROR_CATALOGUE[code] as ErrorSpec).retryAfter === true
}

/** Where the docs explain a code; used as the problem `type`. */
export function errorTypeUri(code: ErrorCode): string {
  return `/docs/errors#${code}`
}

export type Operation = 'health' | 'formats' | 'compress'

/** The codes each operation can answer with: the OpenAPI document and the docs list these. */
export const OPERATION_ERRORS: Readonly<Record<Operation, readonly ErrorCode[]>> = {
  health: ['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'INTERNAL'],
  formats: ['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'INTERNAL'],
  compress: [
    'INVALID_PARAMETER',
    'MISSING_FILE',
    'MALFORMED_REQUEST',
    'URL_NOT_ALLOWED',
    'NOT_ACCEPTABLE',
    'REQUEST_TIMEOUT',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'CORRUPT_IMAGE',
    'IMAGE_TOO_LARGE',
    'CROP_OUTSIDE_IMAGE',
    'TARGET_UNREACHABLE',
    'PROCESSING_TIMEOUT',
    'CODEC_CRASHED',
    'RATE_LIMITED',
    'HEADERS_TOO_LARGE',
    'OVERLOADED',
    'WORKER_LOST',
    'UNAVAILABLE',
    'SOURCE_FAILED',
    'SOURCE_TIMEOUT',
    'STORE_NOT_ALLOWED',
    'STORE_EXISTS',
    'STORE_FAILED',
    'INTERNAL',
  ],
}

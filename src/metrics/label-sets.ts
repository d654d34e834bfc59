import { ENDPOINTS } from '../endpoints.ts'
import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  OPERATION_ERRORS,
  type ErrorCode,
  type Operation,
} from '../errors/catalogue.ts'
import { FORMAT_TABLE, OUTPUT_FORMATS } from '../formats/format-table.ts'

/**
 * The label values each series can take, known before the first event, so every series is
 * exported at 0 from the first scrape. Without that, a counter's first increment is invisible
 * to `rate()` and `increase()` (the series starts at 1), and an alert on a series that does not
 * exist yet never fires.
 */
export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const
export type StatusClass = (typeof STATUS_CLASSES)[number]

/** The `format` of a compress request that returned no image. */
export const NO_FORMAT = 'none'

export function statusClass(status: number): StatusClass {
  if (status >= 500) return '5xx'
  if (status >= 400) return '4xx'
  return '2xx'
}

/** Where a compress request can end: an image in each output format, or an error of a class. */
export const COMPRESS_OUTCOMES: readonly { status_class: StatusClass; format: string }[] = [
  ...OUTPUT_FORMATS.map((format) => ({ status_class: '2xx' as const, format })),
  { status_class: '4xx', format: NO_FORMAT },
  { status_class: '5xx', format: NO_FORMAT },
]

export const INPUT_FORMATS = Object.keys(FORMAT_TABLE)

/**
 * Why a worker process ended in the middle of a job: its codec crashed, it was killed from
 * outside the server ("lost"), or the server killed it over its CPU time, its wall-time ceiling
 * ("overloaded") or its memory.
 */
export const WORKER_STOPS = ['crash', 'lost', 'timeout', 'overloaded', 'memory'] as const
export type WorkerStop = (typeof WORKER_STOPS)[number]

export const RATE_LIMIT_KINDS = ['rate', 'client_jobs'] as const
export type RateLimitKind = (typeof RATE_LIMIT_KINDS)[number]

export { REDIS_CALLS, type RedisCall } from '../rate/redis-store.ts'
export { WRITE_RESULTS as STORE_WRITE_RESULTS, type WriteResult as StoreWriteResult } from '../store/index.ts'

export { ERROR_CODES }

const statusOf = (code: ErrorCode) => String(ERROR_CATALOGUE[code].status)

/** The API's operations and every status each can answer, as the OpenAPI document declares them. */
const SUCCESSES: Readonly<Record<Operation, readonly string[]>> = {
  health: ['200', '503'],
  formats: ['200', '304', statusOf('UNAUTHORIZED')],
  compress: ['200', statusOf('UNAUTHORIZED')],
}

export const API_REQUESTS: readonly { method: string; route: string; status: string }[] = [
  ...ENDPOINTS.flatMap(({ operation, method, path }) =>
    [...SUCCESSES[operation], ...OPERATION_ERRORS[operation].map(statusOf)].map((status) => ({
      method,
      route: path,
      status,
    })),
  ),
].filter((labels, i, all) => all.findIndex((other) => sameLabels(other, labels)) === i)

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  return Object.keys(a).every((key) => a[key] === b[key])
}

import type { AppError } from '../errors/app-error.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { problemResponse } from './problem.ts'
import { metaOf } from './request-meta.ts'

/** Answers a request with a problem, before or instead of its route. */
export type Refuse = (
  error: AppError,
  request: Request,
  extraHeaders?: Readonly<Record<string, string>>,
) => Response

/**
 * Every refusal the hooks make, in one shape: the problem, the headers the refusal adds, the
 * status kept for the access log (which runs after the response has left) and the count by code.
 */
export function createRefuse(metrics: Pick<Metrics, 'rejected'>): Refuse {
  return (error, request, extraHeaders = {}) => {
    const meta = metaOf(request)
    const response = problemResponse(error, meta.id, request)
    for (const [name, value] of Object.entries(extraHeaders)) response.headers.set(name, value)
    meta.status = response.status
    metrics.rejected(error.code)
    return response
  }
}

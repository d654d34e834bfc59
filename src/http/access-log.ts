import { guardedOperation } from '../endpoints.ts'
import { clip } from '../errors/echo.ts'
import type { Logger } from '../log.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { methodLabel } from '../metrics/route-label.ts'
import { phaseSeconds } from './job-times.ts'
import { metaOf } from './request-meta.ts'
import { requestTarget } from './request-target.ts'

/** Not an HTTP status anyone receives: nginx's code for "the client closed the request", for the log. */
export const CLIENT_CLOSED_REQUEST = 499

export interface AccessLogDeps {
  readonly logger: Logger
  readonly metrics: Pick<Metrics, 'request' | 'compressAnswered'>
  /** The route a path counts under, so the metrics' labels stay few whatever paths arrive. */
  readonly routeOf: (pathname: string) => string
}

/** A request's one access-log line and its count in the metrics, once its status is known. */
export function createAccessLog({ logger, metrics, routeOf }: AccessLogDeps) {
  return (request: Request, status: number): void => {
    const meta = metaOf(request)
    const now = performance.now()
    const { pathname } = requestTarget(request)
    const route = routeOf(pathname)
    metrics.request(methodLabel(request.method), route, status)
    if (guardedOperation(request.method, route) === 'compress') {
      metrics.compressAnswered({
        status,
        seconds: (now - meta.started) / 1000,
        ...phaseSeconds(meta.job, now),
        format: meta.outputFormat,
      })
    }
    const line = {
      requestId: meta.id,
      method: clip(request.method, 16),
      path: clip(pathname),
      status,
      ms: Math.round(now - meta.started),
      ...(meta.bytesIn !== undefined ? { bytesIn: meta.bytesIn } : {}),
      ...(meta.bytesOut !== undefined ? { bytesOut: meta.bytesOut } : {}),
      ...(meta.client ? { client: meta.client.logId } : {}),
      ...(meta.sourceUrl ? { sourceUrl: meta.sourceUrl } : {}),
      ...(meta.stored ? { stored: meta.stored } : {}),
    }
    if (status === CLIENT_CLOSED_REQUEST) logger.info('client closed the request', line)
    else logger.info('request', line)
  }
}

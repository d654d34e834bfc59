import type { AccessControl, GuardedRoute } from '../access/access-control.ts'
import type { Config } from '../config.ts'
import { guardedOperation } from '../endpoints.ts'
import { AppError } from '../errors/app-error.ts'
import { clip, echo } from '../errors/echo.ts'
import { ClientClosedRequest } from './body-stream.ts'
import { applyCors, preflightHeaders, type CorsPolicy } from './cors.ts'
import { toHttpError, type RouteMethods } from './error-handler.ts'
import { requestHeadBytes } from './header-size.ts'
import { phaseSeconds } from './job-times.ts'
import { problemResponse } from './problem.ts'
import { securityHeadersFor } from './security-headers.ts'
import { metaOf, startMeta } from './request-meta.ts'
import type { Lifecycle } from '../lifecycle.ts'
import type { Logger } from '../log.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { methodLabel } from '../metrics/route-label.ts'
import { hasValidHost, requestTarget } from './request-target.ts'
import { unreadBodyHeaders } from './unread-body.ts'

type Headers = Record<string, string | number>
interface HookContext {
  readonly request: Request
  readonly set: { headers: Headers; status?: number | string }
  readonly server?: { requestIP(request: Request): { address: string } | null } | null
}

/** What the hooks read from the app. */
export interface HookDeps {
  readonly config: Pick<Config, 'maxHeaderBytes' | 'maxUploadBytes'>
  readonly logger: Logger
  readonly cors: CorsPolicy
  readonly lifecycle: Pick<Lifecycle, 'draining'>
  readonly metrics: Pick<Metrics, 'rejected' | 'rateLimited' | 'request' | 'compressAnswered'>
  readonly access: Pick<AccessControl, 'check' | 'needsKey'>
}

/** Not an HTTP status anyone receives: nginx's code for "the client closed the request", for the log. */
export const CLIENT_CLOSED_REQUEST = 499

/** Checks that need nothing but the request line and headers; the first failure is the answer. */
function checkHead(request: Request, maxHeaderBytes: number): AppError | undefined {
  if (!hasValidHost(request)) {
    return new AppError(
      'MALFORMED_REQUEST',
      `expected a Host header with a valid host name or address and optional port, received ${echo(request.headers.get('host') ?? '(none)')}`,
      { headers: { connection: 'close' } },
    )
  }
  const headBytes = requestHeadBytes(request, requestTarget(request).target)
  if (headBytes > maxHeaderBytes) {
    return new AppError(
      'HEADERS_TOO_LARGE',
      `expected a request line and headers of at most ${maxHeaderBytes} bytes, received ${headBytes}`,
      { headers: { connection: 'close' } },
    )
  }
  return undefined
}

/** The app-wide hooks: request id, head checks, CORS and draining first; one error shape; one log line. */
export function createRequestHooks(
  context: HookDeps,
  methodsFor: RouteMethods,
  routeOf: (pathname: string) => string,
) {
  const { logger, config, cors, lifecycle, metrics } = context

  function refuse(
    error: AppError,
    request: Request,
    extraHeaders: Readonly<Record<string, string>> = {},
  ): Response {
    const meta = metaOf(request)
    const response = problemResponse(error, meta.id, request)
    for (const [name, value] of Object.entries(extraHeaders)) response.headers.set(name, value)
    meta.status = response.status
    metrics.rejected(error.code)
    return response
  }

  /** Key and rate limit, before the body is read; the grant's headers go on the response. */
  const checkAccess = (request: Request, set: HookContext['set'], route: GuardedRoute, peer?: string) =>
    context.access.check(request, route, peer).then(({ client, headers, refusal }) => {
      metaOf(request).client = client
      if (!refusal) {
        Object.assign(set.headers, headers)
        return undefined
      }
      if (refusal.code === 'RATE_LIMITED') metrics.rateLimited('rate')
      // Refused before the body is read: it is drained or its connection closed.
      return refuse(refusal, request, unreadBodyHeaders(request, config.maxUploadBytes))
    })

  const screen = ({
    request,
    set,
    server,
  }: HookContext): Response | Promise<Response | undefined> | undefined => {
    const meta = startMeta(request)
    set.headers['x-request-id'] = meta.id
    Object.assign(set.headers, securityHeadersFor(requestTarget(request).pathname))
    applyCors(set.headers, cors, request)
    if (lifecycle.draining) set.headers.connection = 'close'
    const bad = checkHead(request, config.maxHeaderBytes)
    if (bad) return refuse(bad, request)
    const { pathname } = requestTarget(request)
    const route = guardedOperation(request.method, pathname)
    if (route && (route === 'compress' || context.access.needsKey(route)))
      return checkAccess(request, set, route, server?.requestIP(request)?.address)
    if (request.method === 'OPTIONS') {
      const methods = methodsFor(pathname)
      if (methods.length > 0) {
        return new Response(null, {
          status: 204,
          headers: { ...preflightHeaders(cors, request, methods), allow: [...methods, 'OPTIONS'].join(', ') },
        })
      }
    }
    return undefined
  }

  const onError = ({ code, error, request }: { code: string | number; error: unknown; request: Request }) => {
    const meta = metaOf(request)
    if (error instanceof ClientClosedRequest) {
      meta.status = CLIENT_CLOSED_REQUEST
      return new Response(null, { status: CLIENT_CLOSED_REQUEST })
    }
    return refuse(toHttpError(code, error, request, methodsFor, logger, meta.id), request)
  }

  /** The request's one access-log line and its count in the metrics. */
  const record = (request: Request, status: number) => {
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
    }
    if (status === CLIENT_CLOSED_REQUEST) logger.info('client closed the request', line)
    else logger.info('request', line)
  }

  // Elysia runs no onAfterResponse for a response returned by onRequest (a refusal or a
  // preflight): those are recorded here, as they leave.
  const onRequest = (context: HookContext): Response | Promise<Response | undefined> | undefined => {
    const answer = screen(context)
    if (answer instanceof Response) record(context.request, answer.status)
    else if (answer) {
      return answer.then((response) => {
        if (response) record(context.request, response.status)
        return response
      })
    }
    return answer
  }

  const onAfterResponse = ({ request, set, responseValue }: HookContext & { responseValue?: unknown }) => {
    const meta = metaOf(request)
    record(
      request,
      meta.status ?? (responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200)),
    )
  }

  /** When even the error handler fails: a fixed problem, built from nothing the request controls. */
  const lastResort = (error: unknown): Response => {
    logger.error('unhandled error', {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    return new Response(
      JSON.stringify({
        type: '/docs/errors#INTERNAL',
        title: 'Internal error',
        status: 500,
        detail: 'an unexpected error occurred',
        code: 'INTERNAL',
      }),
      { status: 500, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' } },
    )
  }

  return { onRequest, onError, onAfterResponse, lastResort }
}

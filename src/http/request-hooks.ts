import type { AccessControl } from '../access/access-control.ts'
import type { Config } from '../config.ts'
import { guardedOperation } from '../endpoints.ts'
import type { Lifecycle } from '../lifecycle.ts'
import type { Logger } from '../log.ts'
import type { Metrics } from '../metrics/metrics.ts'
import { CLIENT_CLOSED_REQUEST, createAccessLog } from './access-log.ts'
import { createAccessStep } from './access-step.ts'
import { ClientClosedRequest } from './body-stream.ts'
import { applyCors, preflightResponse, type CorsPolicy } from './cors.ts'
import { toHttpError, type RouteMethods } from './error-handler.ts'
import { checkHead } from './head-check.ts'
import { createLastResort } from './last-resort.ts'
import { createRefuse } from './refuse.ts'
import { metaOf, startMeta } from './request-meta.ts'
import { requestTarget } from './request-target.ts'
import { securityHeadersFor } from './security-headers.ts'
import { slashRedirect } from './slash-redirect.ts'

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

/**
 * The app-wide hooks: request id, head checks, CORS and draining first; one error shape; one
 * log line. Each step is its own module; this file is their order, which is the contract: the
 * head is checked before anything is routed, and a path is sent to its one spelling before the
 * access checks compare it.
 */
export function createRequestHooks(
  context: HookDeps,
  methodsFor: RouteMethods,
  routeOf: (pathname: string) => string,
) {
  const { logger, config, cors, lifecycle, metrics } = context
  const refuse = createRefuse(metrics)
  const checkAccess = createAccessStep({ config, access: context.access, metrics, refuse })
  const record = createAccessLog({ logger, metrics, routeOf })

  /** What every response carries, refusals included: its id, the security headers, CORS. */
  const stamp = (request: Request, headers: Headers, requestId: string) => {
    headers['x-request-id'] = requestId
    Object.assign(headers, securityHeadersFor(requestTarget(request).pathname))
    applyCors(headers, cors, request)
    if (lifecycle.draining) headers.connection = 'close'
  }

  const screen = ({
    request,
    set,
    server,
  }: HookContext): Response | Promise<Response | undefined> | undefined => {
    stamp(request, set.headers, startMeta(request).id)
    const bad = checkHead(request, config.maxHeaderBytes)
    if (bad) return refuse(bad, request)
    const { pathname, query } = requestTarget(request)
    const redirect = slashRedirect(request.method, pathname, query, methodsFor)
    if (redirect) return redirect
    const route = guardedOperation(request.method, pathname)
    if (route && (route === 'compress' || context.access.needsKey(route))) {
      metaOf(request).screened = route
      return checkAccess(request, set.headers, route, server?.requestIP(request)?.address)
    }
    if (request.method === 'OPTIONS') return preflightResponse(cors, request, methodsFor(pathname))
    return undefined
  }

  const onError = ({ code, error, request }: { code: string | number; error: unknown; request: Request }) => {
    const meta = metaOf(request)
    if (error instanceof ClientClosedRequest) {
      meta.status = CLIENT_CLOSED_REQUEST
      return new Response(null, { status: CLIENT_CLOSED_REQUEST })
    }
    return refuse(toHttpError({ code, error, request, methodsFor, logger, requestId: meta.id }), request)
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

  return { onRequest, onError, onAfterResponse, lastResort: createLastResort(logger) }
}

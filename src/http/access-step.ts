import type { AccessControl, GuardedRoute } from '../access/access-control.ts'
import type { Config } from '../config.ts'
import type { Metrics } from '../metrics/metrics.ts'
import type { Refuse } from './refuse.ts'
import { metaOf } from './request-meta.ts'
import { unreadBodyHeaders } from './unread-body.ts'

export interface AccessStepDeps {
  readonly config: Pick<Config, 'maxUploadBytes'>
  readonly access: Pick<AccessControl, 'check'>
  readonly metrics: Pick<Metrics, 'rateLimited'>
  readonly refuse: Refuse
}

/**
 * Key and rate limit, before the body is read: a grant's headers go on the response, a refusal
 * is the answer. Either way the client it names is kept for the access log.
 */
export function createAccessStep({ config, access, metrics, refuse }: AccessStepDeps) {
  return (
    request: Request,
    headers: Record<string, string | number>,
    route: GuardedRoute,
    peer: string | undefined,
  ): Promise<Response | undefined> =>
    access.check(request, route, peer).then(({ client, headers: granted, refusal }) => {
      metaOf(request).client = client
      if (!refusal) {
        Object.assign(headers, granted)
        return undefined
      }
      if (refusal.code === 'RATE_LIMITED') metrics.rateLimited('rate')
      // Refused before the body is read: it is drained or its connection closed.
      return refuse(refusal, request, unreadBodyHeaders(request, config.maxUploadBytes))
    })
}

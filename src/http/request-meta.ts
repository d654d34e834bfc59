import type { ClientIdentity } from '../access/client-identity.ts'
import type { JobTimes } from './job-times.ts'
import { requestIdFor } from './request-id.ts'

/** What the access log needs about a request, gathered by the hooks and the routes. */
export interface RequestMeta {
  readonly id: string
  readonly started: number
  status?: number
  /** Request body bytes read, response body bytes produced. */
  bytesIn?: number
  bytesOut?: number
  /** Who sent it, once the access checks have run (compress and guarded formats only). */
  client?: ClientIdentity
  /** A compress request's job, once it reaches the queue, and the format of the image returned. */
  job?: JobTimes
  outputFormat?: string
}

const metas = new WeakMap<Request, RequestMeta>()

export function startMeta(request: Request): RequestMeta {
  const meta = { id: requestIdFor(request), started: performance.now() }
  metas.set(request, meta)
  return meta
}

/** The request's meta, created on first use when a hook before this one did not run. */
export function metaOf(request: Request): RequestMeta {
  return metas.get(request) ?? startMeta(request)
}

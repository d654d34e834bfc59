import type { ClientIdentity } from '../access/client-identity.ts'
import type { GuardedOperation } from '../endpoints.ts'
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
  /** The guarded operation whose key and rate-limit checks ran for this request. */
  screened?: GuardedOperation
  /** A compress request's job, once it reaches the queue, and the format of the image returned. */
  job?: JobTimes
  outputFormat?: string
  /** Where a url's image came from, as it may be shown (no userinfo, no query). */
  sourceUrl?: string
  /** Where a store request's outputs went, or were to go: bucket, key and the write's result. */
  stored?: readonly { readonly bucket: string; readonly key: string; readonly result: string }[]
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

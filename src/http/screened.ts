import type { GuardedOperation } from '../endpoints.ts'
import { AppError } from '../errors/app-error.ts'
import { clip } from '../errors/echo.ts'
import { metaOf } from './request-meta.ts'
import { requestPath } from './request-target.ts'

/**
 * The handler's own half of the access checks: a guarded handler runs only for a request the
 * hooks screened as that operation. The router and the hooks agree on the path today
 * (http/slash-redirect.ts); should they ever drift apart again, a spelling the hooks did not
 * recognise is refused here as not found, instead of being served without a key or a limit.
 */
export function requireScreened(request: Request, operation: GuardedOperation): void {
  if (metaOf(request).screened === operation) return
  throw new AppError(
    'NOT_FOUND',
    `expected the path of ${operation} as the endpoint list spells it, received ${clip(requestPath(request))}`,
  )
}

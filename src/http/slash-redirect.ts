import type { RouteMethods } from './error-handler.ts'

/**
 * The router matches paths exactly (`strictPath`), as the key check, the rate limiter, client
 * identity and the metrics' route labels do: a path is one route or none, whoever asks. Elysia
 * otherwise answered `/api/compress/` as `/api/compress` while those checks compared the path
 * exactly, so a trailing slash skipped keys and limits.
 *
 * Readers still type `/docs` and `/docs/tester/`: a GET or HEAD whose path is not a route but
 * is one with the trailing slash added or removed is sent there (308, query kept), through
 * every check again. Anything else with a stray slash, a POST above all, is a 404.
 */
export function slashRedirectTarget(
  method: string,
  pathname: string,
  methodsFor: RouteMethods,
): string | undefined {
  if ((method !== 'GET' && method !== 'HEAD') || pathname === '/') return undefined
  if (methodsFor(pathname).length > 0) return undefined
  const other = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`
  // One slash only: `/docs//` is not a spelling of anything.
  if (other.endsWith('//') || other === '') return undefined
  return methodsFor(other).includes('GET') ? other : undefined
}

/** The 308 to the path's one spelling, query kept; undefined when the path is already a route's. */
export function slashRedirect(
  method: string,
  pathname: string,
  query: URLSearchParams,
  methodsFor: RouteMethods,
): Response | undefined {
  const canonical = slashRedirectTarget(method, pathname, methodsFor)
  if (!canonical) return undefined
  const search = query.toString()
  return new Response(null, {
    status: 308,
    headers: { location: search ? `${canonical}?${search}` : canonical },
  })
}

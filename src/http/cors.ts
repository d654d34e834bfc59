import { HEADER_NAMES } from './headers.ts'
import { addVary } from './vary.ts'

/**
 * CORS, small and exact: `*` needs no Vary (so /api/formats stays cacheable), a list of
 * origins reflects the matching one with `Vary: Origin`, and browsers may read every header
 * the API documents (the table in headers.ts).
 */
export const EXPOSED_HEADERS = [...HEADER_NAMES.map((name) => name.toLowerCase()), 'content-length']

const ALLOWED_REQUEST_HEADERS =
  'accept, accept-language, content-type, content-disposition, x-request-id, authorization, x-api-key'

export type CorsPolicy = { kind: 'none' } | { kind: 'any' } | { kind: 'list'; origins: ReadonlySet<string> }

export function parseCorsOrigins(setting: string): CorsPolicy {
  const value = setting.trim()
  if (value === '' || value === 'none') return { kind: 'none' }
  if (value === '*') return { kind: 'any' }
  return { kind: 'list', origins: new Set(value.split(',').map((o) => o.trim().replace(/\/$/, ''))) }
}

/** Headers for an actual (non-preflight) response; `vary` is to be merged, not set (vary.ts). */
export function corsHeaders(policy: CorsPolicy, request: Request): Record<string, string> {
  if (policy.kind === 'none') return {}
  const exposed = { 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') }
  if (policy.kind === 'any') return { 'access-control-allow-origin': '*', ...exposed }
  const origin = request.headers.get('origin')
  if (origin && policy.origins.has(origin))
    return { 'access-control-allow-origin': origin, vary: 'Origin', ...exposed }
  return { vary: 'Origin' }
}

/** Adds the CORS headers for `request` to a response's headers, merging Vary. */
export function applyCors(
  headers: Record<string, string | number>,
  policy: CorsPolicy,
  request: Request,
): void {
  const { vary, ...rest } = corsHeaders(policy, request)
  Object.assign(headers, rest)
  if (vary) addVary(headers, vary)
}

/** Headers for a preflight (OPTIONS) response to a path that accepts `methods`. */
export function preflightHeaders(
  policy: CorsPolicy,
  request: Request,
  methods: readonly string[],
): Record<string, string> {
  const base = corsHeaders(policy, request)
  if (!base['access-control-allow-origin']) return base
  return {
    ...base,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': '600',
  }
}

/**
 * The answer to a preflight (OPTIONS) for a path that accepts `methods`; undefined for a path
 * that has none, which goes on to the router's 404 like any other unknown path.
 */
export function preflightResponse(
  policy: CorsPolicy,
  request: Request,
  methods: readonly string[],
): Response | undefined {
  if (methods.length === 0) return undefined
  return new Response(null, {
    status: 204,
    headers: { ...preflightHeaders(policy, request, methods), allow: [...methods, 'OPTIONS'].join(', ') },
  })
}

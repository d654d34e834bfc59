import type { Operation } from './errors/catalogue.ts'

/*
 * The API's endpoints, declared once. The routes register these paths; the request hooks check
 * keys and rate limits on the guarded ones before a body is read; a 404 lists them; --help, the
 * docs (reference and tester) and the start-up line show them.
 */

export interface Endpoint {
  readonly operation: Operation
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** Checked for an API key (when keys are on) and a rate limit before the body is read. */
  readonly guarded: boolean
}

export const API_PREFIX = '/api'
/** The interactive OpenAPI reference; its JSON document is at `${REFERENCE_PATH}/json`. */
export const REFERENCE_PATH = '/swagger'

export const ENDPOINTS = [
  { operation: 'health', method: 'GET', path: `${API_PREFIX}/health`, guarded: false },
  { operation: 'formats', method: 'GET', path: `${API_PREFIX}/formats`, guarded: true },
  { operation: 'compress', method: 'POST', path: `${API_PREFIX}/compress`, guarded: true },
] as const satisfies readonly Endpoint[]

export type GuardedOperation = Extract<(typeof ENDPOINTS)[number], { guarded: true }>['operation']

export function endpointOf<O extends Operation>(
  operation: O,
): Extract<(typeof ENDPOINTS)[number], { operation: O }> {
  return ENDPOINTS.find((e) => e.operation === operation) as Extract<
    (typeof ENDPOINTS)[number],
    { operation: O }
  >
}

/** `GET /api/health, GET /api/formats, POST /api/compress`, as a 404 and --help list them. */
export const ENDPOINT_LIST = ENDPOINTS.map((e) => `${e.method} ${e.path}`).join(', ')

/** The guarded endpoint a request is for: HEAD counts as GET, as the router answers it. */
export function guardedOperation(method: string, pathname: string): GuardedOperation | undefined {
  const found = ENDPOINTS.find(
    (e) =>
      e.guarded && e.path === pathname && (e.method === method || (e.method === 'GET' && method === 'HEAD')),
  )
  return found?.operation as GuardedOperation | undefined
}

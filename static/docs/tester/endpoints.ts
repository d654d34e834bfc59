/** The three operations the tester can call, in the order the API documents them. */
export const ENDPOINTS = [
  { id: 'health', method: 'GET', path: '/api/health' },
  { id: 'formats', method: 'GET', path: '/api/formats' },
  { id: 'compress', method: 'POST', path: '/api/compress' },
] as const

export type EndpointId = (typeof ENDPOINTS)[number]['id']

/**
 * The options most requests set, shown first; the rest wait in a disclosure, in the schema's
 * order. An option the schema gains joins the rest with no change here.
 */
export const FIRST_OPTIONS: readonly string[] = ['format', 'quality', 'width', 'height']

/** Every option, the first ones first, then the others as the schema lists them. */
export function optionOrder(names: readonly string[]): { first: string[]; more: string[] } {
  return {
    first: FIRST_OPTIONS.filter((name) => names.includes(name)),
    more: names.filter((name) => !FIRST_OPTIONS.includes(name)),
  }
}

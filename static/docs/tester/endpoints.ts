import { ENDPOINTS as TABLE } from '../../../src/endpoints.ts'

/** The operations the tester can call, from the one table of endpoints, in its order. */
export const ENDPOINTS = TABLE.map(({ operation, method, path }) => ({ id: operation, method, path }))

export type EndpointId = (typeof TABLE)[number]['operation']

/** Options that name the image instead of carrying it: shown beside the file, not among the options. */
export const SOURCE_OPTIONS: readonly string[] = ['url']

/**
 * The options most requests set, shown first; the rest wait in a disclosure, in the schema's
 * order. An option the schema gains joins the rest with no change here.
 */
export const FIRST_OPTIONS: readonly string[] = ['format', 'quality', 'width', 'height']

/** Every option: the source ones, the first ones, then the others as the schema lists them. */
export function optionOrder(names: readonly string[]): { source: string[]; first: string[]; more: string[] } {
  const placed = [...SOURCE_OPTIONS, ...FIRST_OPTIONS]
  return {
    source: SOURCE_OPTIONS.filter((name) => names.includes(name)),
    first: FIRST_OPTIONS.filter((name) => names.includes(name)),
    more: names.filter((name) => !placed.includes(name)),
  }
}

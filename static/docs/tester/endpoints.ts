import { ENDPOINTS as TABLE } from '../../../src/endpoints.ts'

/** The operations the tester can call, from the one table of endpoints, in its order. */
export const ENDPOINTS = TABLE.map(({ operation, method, path }) => ({ id: operation, method, path }))

export type EndpointId = (typeof TABLE)[number]['operation']

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

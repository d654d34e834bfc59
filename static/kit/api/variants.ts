/*
 * Several outputs of one image in one POST /api/compress: each output's options as a request
 * alone would send them, split into the options every output shares (the query string) and
 * those an entry of `variants` sets, typed as JSON (a width is a number there, not text).
 */
import { VARIANT_OPTIONS, VARIANT_TEXT_OPTIONS } from '../../../src/options/variant-options.ts'

export type VariantOptions = Readonly<Record<string, string | number | boolean>>

const PER_VARIANT = new Set<string>(VARIANT_OPTIONS)
const TEXT = new Set<string>(VARIANT_TEXT_OPTIONS)

/** What every output shares: the options no entry of `variants` may set. */
export function sharedOptions(query: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...query].filter(([name]) => !PER_VARIANT.has(name)))
}

function typed(name: string, value: string): string | number | boolean {
  if (TEXT.has(name)) return value
  if (value === 'true' || value === 'false') return value === 'true'
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value
}

/** One entry of `variants`: the output's own options, as JSON takes them. */
export function variantOptions(query: URLSearchParams): VariantOptions {
  return Object.fromEntries(
    [...query].filter(([name]) => PER_VARIANT.has(name)).map(([name, value]) => [name, typed(name, value)]),
  )
}

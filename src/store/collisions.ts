/*
 * Two variants of one request may not share a key: the second write would replace the first
 * (or fail as existing). Caught before any work from what the request says of each variant;
 * what only the outputs tell (a height that comes to the same width) is caught again per key.
 */
import { AppError } from '../errors/app-error.ts'
import { resolveFormatName } from '../formats/format-table.ts'
import type { Placeholder } from './key-template.ts'

/** What a variant asks for that a placeholder shows, the request's own options under it. */
export interface VariantAsk {
  readonly width?: unknown
  readonly height?: unknown
  readonly dpr?: unknown
  readonly format?: unknown
}

function shown(placeholder: Placeholder, ask: VariantAsk): string {
  switch (placeholder) {
    case 'width':
    case 'height':
      return `${String(ask[placeholder])}@${String(ask.dpr ?? 1)}`
    case 'ext':
    case 'format':
      return String(resolveFormatName(String(ask.format)) ?? ask.format)
    default:
      // {name} and {date} are one value for the whole request.
      return ''
  }
}

/** STORE_NOT_ALLOWED when the template gives two variants one key, before any work. */
export function refuseCollidingVariants(used: ReadonlySet<Placeholder>, asks: readonly VariantAsk[]): void {
  if (used.has('hash') || asks.length < 2) return
  const seen = new Map<string, number>()
  asks.forEach((ask, index) => {
    const signature = [...used].map((placeholder) => shown(placeholder, ask)).join('|')
    const earlier = seen.get(signature)
    if (earlier !== undefined)
      throw new AppError(
        'STORE_NOT_ALLOWED',
        `expected a key template that gives each variant its own key, received one that gives variants[${earlier}] and variants[${index}] the same; add {hash}, or {width}, {height} or {format} where they differ`,
      )
    seen.set(signature, index)
  })
}

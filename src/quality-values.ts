/*
 * The q-values of an Accept-style header (Accept, Accept-Language, Accept-Encoding): each
 * comma-separated entry with its weight, parsed in one place so the negotiations of media type,
 * language and encoding read a header the same way. Names and parameters are case-insensitive
 * (RFC 9110 §12.4.2), so both are lower-cased. It sits at the root of src/ because both i18n.ts
 * and http/ read it, and http/ already depends on i18n.ts.
 */

export interface QualityEntry {
  /** The media range, language tag or coding, trimmed and lower-cased. */
  readonly value: string
  /** Its weight: 1 when the entry has no q, 0 when the q is not a number (a garbled q refuses). */
  readonly q: number
}

export function qualityValues(header: string): QualityEntry[] {
  return header.split(',').map((part) => {
    const [value = '', ...params] = part.toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    return { value: value.trim(), q: Number.isFinite(weight) ? weight : 0 }
  })
}

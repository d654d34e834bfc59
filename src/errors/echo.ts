/**
 * How client-supplied text is quoted back in errors and logs. An error must never be larger
 * than the request that caused it: a 1 MB field once came back as a 2 MB 400, and 568,680
 * empty fields as a 202 MB one. Values are clipped, lists are capped with a count of the rest.
 */
export const MAX_ECHO_CHARS = 100
export const MAX_LISTED_ERRORS = 20
/** The Problem schema's bounds (openapi/errors.ts): a problem's detail, and each field error's reason. */
export const MAX_DETAIL_CHARS = 8192
export const MAX_REASON_CHARS = 512

/** JSON-quoted, clipped to MAX_ECHO_CHARS, with the original length when clipped. */
export function echo(value: string, max = MAX_ECHO_CHARS): string {
  if (value.length <= max) return JSON.stringify(value)
  return `${JSON.stringify(value.slice(0, max))}… (${value.length} characters)`
}

/** The raw text clipped for a log line (no quoting: the log is JSON already). */
export function clip(value: string, max = 200): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`
}

/** At most MAX_LISTED_ERRORS items, and how many were left out. */
export function capList<T>(items: readonly T[], max = MAX_LISTED_ERRORS): { listed: T[]; omitted: number } {
  return { listed: items.slice(0, max), omitted: Math.max(0, items.length - max) }
}

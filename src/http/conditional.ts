/**
 * Conditional GET (RFC 9110 section 13.1.2): a representation served with an ETag answers 304
 * with no body when If-None-Match names that ETag or is "*" (any current representation, and
 * every response that carries an ETag is one). Comparison is weak, as the RFC asks for
 * If-None-Match: W/"x" matches "x".
 */
export function etagOf(bytes: Uint8Array | string): string {
  return `"${Bun.hash(bytes).toString(16)}"`
}

export function matchesIfNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (header === null) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/**
 * The 304 for a matching If-None-Match, or undefined to send the representation. The 304
 * carries the validator and caching headers the 200 would have (RFC 9110 section 15.4.5).
 */
export function notModified(request: Request, headers: Record<string, string>): Response | undefined {
  if (!headers.etag || !matchesIfNoneMatch(request, headers.etag)) return undefined
  const kept = Object.fromEntries(
    Object.entries(headers).filter(([name]) =>
      ['etag', 'cache-control', 'content-location', 'expires'].includes(name),
    ),
  )
  return new Response(null, { status: 304, headers: kept })
}

/**
 * The path and query of a request, read without `new URL()`. Bun builds `request.url` from
 * the Host header, and a hostile Host (`a%zz`, `a:99999`, `[::1`, none at all on HTTP/1.0)
 * makes that URL unparseable: anything that parses it may throw, and a throw in the wrong
 * hook used to end the process. Everything that needs the path or query reads it here.
 */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i

export interface RequestTarget {
  /** Path and query as in the request line. */
  readonly target: string
  readonly pathname: string
  readonly query: URLSearchParams
}

export function requestTarget(request: Request): RequestTarget {
  const url = request.url.replace(ORIGIN, '')
  const hash = url.indexOf('#')
  const withoutHash = hash === -1 ? url : url.slice(0, hash)
  const mark = withoutHash.indexOf('?')
  const pathname = (mark === -1 ? withoutHash : withoutHash.slice(0, mark)) || '/'
  return {
    target: withoutHash,
    pathname,
    query: new URLSearchParams(mark === -1 ? '' : withoutHash.slice(mark + 1)),
  }
}

export function requestPath(request: Request): string {
  return requestTarget(request).pathname
}

/**
 * A host name (letters, digits, dots, hyphens, underscores), an IPv4 address or a bracketed
 * IPv6 address, with an optional port. Nothing else may reach the router: it finds the path at
 * the first '/' after the scheme, so a Host carrying '/', '?' or '#' would move the path the
 * router sees away from the one the access checks read.
 */
const HOST = /^(?:[a-z0-9_][a-z0-9._-]*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i

/**
 * True when the request URL, which Bun builds from the Host header, has a plain host and
 * optional port and parses: false for a malformed Host, an empty one, or none at all
 * (HTTP/1.0), when Bun leaves the URL relative.
 */
export function hasValidHost(request: Request): boolean {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)/i.exec(request.url)?.[1]
  return authority !== undefined && HOST.test(authority) && URL.canParse(request.url)
}

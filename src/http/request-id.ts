const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Reuses a caller's or proxy's X-Request-Id when it is safe to echo and log; otherwise makes one. */
export function requestIdFor(request: Request): string {
  const given = request.headers.get('x-request-id')
  return given && SAFE_ID.test(given) ? given : crypto.randomUUID()
}

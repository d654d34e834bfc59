/**
 * Security headers for the HTML the service serves. The docs pages load nothing but their own
 * hashed script and stylesheet, so their policy allows only this origin; images in the tester
 * are object URLs of the caller's own files and results (blob:), and data: only for the empty
 * favicon. The Scalar reference at /swagger injects style attributes and workers, so its policy
 * is the strictest it still renders under (checked in the browser tests).
 */
const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
}

const policy = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ')

export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'content-security-policy': policy({
    'default-src': "'none'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' blob: data:",
    'connect-src': "'self'",
    'form-action': "'self'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
  }),
}

export const REFERENCE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'content-security-policy': policy({
    'default-src': "'none'",
    // The page's Scalar configuration element is empty (src/docs/swagger-page.ts): no inline script.
    'script-src': "'self'",
    'style-src': "'self' 'unsafe-inline'",
    'img-src': "'self' data: blob:",
    'font-src': "'self' data:",
    'connect-src': "'self'",
    'worker-src': "'self' blob:",
    'form-action': "'self'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
  }),
}

/**
 * The headers for a response to `pathname`: the HTML policies for pages, nosniff for everything.
 * The tools (`/` and /tools/) live under the docs' policy: their own scripts and styles, the
 * caller's images as blob: URLs, a placeholder's data: URI, and requests to this origin only.
 */
export function securityHeadersFor(pathname: string): Readonly<Record<string, string>> {
  if (pathname === '/swagger' || pathname === '/swagger/') return REFERENCE_SECURITY_HEADERS
  if (pathname === '/' || pathname === '/tools' || pathname.startsWith('/tools/'))
    return DOCS_SECURITY_HEADERS
  if (pathname === '/docs' || pathname.startsWith('/docs/')) return DOCS_SECURITY_HEADERS
  return { 'x-content-type-options': 'nosniff' }
}

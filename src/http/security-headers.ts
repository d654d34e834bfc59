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

/**
 * The Swagger plugin's page carries Scalar's configuration on an empty inline script element
 * (`<script id="api-reference" data-configuration=…>` holding only a line break and four
 * spaces). It runs nothing, but a policy without its hash reports a violation on every visit.
 */
const SCALAR_CONFIG_ELEMENT = `'sha256-${new Bun.CryptoHasher('sha256').update('\n    ').digest('base64')}'`

export const REFERENCE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'content-security-policy': policy({
    'default-src': "'none'",
    'script-src': `'self' ${SCALAR_CONFIG_ELEMENT}`,
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

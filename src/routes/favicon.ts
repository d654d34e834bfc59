import { Elysia } from 'elysia'

// Browsers ask every origin for /favicon.ico (the Scalar page at /swagger names no icon); a 404
// there is an error in every visitor's console. SVG at that path is understood by current browsers.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M7 23l6-8 4 5 3-3 5 6z" fill="#fff"/><circle cx="22" cy="10" r="3" fill="#fff"/></svg>`

export function faviconRoutes() {
  return new Elysia().get(
    '/favicon.ico',
    () =>
      new Response(ICON, {
        headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
      }),
    { detail: { hide: true } },
  )
}

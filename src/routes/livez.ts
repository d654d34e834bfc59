import { Elysia } from 'elysia'

/**
 * Liveness for orchestrators: answers while the event loop runs, and nothing else. Readiness
 * is /api/health, which also fails while the codecs are broken or the server drains; a
 * liveness probe on it would restart a pod that only needs to be taken out of rotation.
 */
export function livezRoutes() {
  return new Elysia().get(
    '/livez',
    () =>
      new Response('ok\n', {
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      }),
    { detail: { hide: true } },
  )
}

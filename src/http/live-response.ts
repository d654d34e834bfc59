/**
 * The liveness answer, declared once: the early listener gives it while the service loads
 * (http/early-listener.ts), the /livez route after. Kept apart from the route so that start-up
 * does not load Elysia to answer it.
 */
export const liveResponse = () =>
  new Response('ok\n', {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })

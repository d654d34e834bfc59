import { Elysia } from 'elysia'
import { presentedKey } from '../access/access-control.ts'
import { KeyRing, keysFromList } from '../access/api-keys.ts'
import type { AppContext } from '../app-context.ts'
import { AppError } from '../errors/app-error.ts'

/**
 * Prometheus's scrape target, outside /api and out of the OpenAPI document: it is for the
 * people running the service, not for its callers. IMGAPI_METRICS_KEY, when set, is its own
 * bearer key, separate from the API keys.
 */
export function metricsRoutes(context: AppContext) {
  const ring = context.config.metricsKey ? new KeyRing(keysFromList(context.config.metricsKey)) : undefined
  return new Elysia().get(
    '/metrics',
    async ({ request }) => {
      if (ring) {
        const presented = presentedKey(request)
        if (!presented || !ring.find(presented)) {
          throw new AppError(
            'UNAUTHORIZED',
            presented
              ? 'expected the metrics key, received another'
              : 'expected the metrics key in Authorization: Bearer <key>, received none',
            { headers: { 'www-authenticate': 'Bearer realm="imgapi-metrics"' } },
          )
        }
      }
      return new Response(await context.metrics.text(), {
        headers: { 'content-type': context.metrics.contentType, 'cache-control': 'no-store' },
      })
    },
    { detail: { hide: true } },
  )
}

import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { endpointOf } from '../endpoints.ts'
import type { CodecCheck } from '../image/self-test.ts'
import { engineVersions } from '../image/sharp.ts'
import { VERSION } from '../version.ts'
import { headersOn } from '../http/headers.ts'
import { OPERATION_ERRORS } from '../errors/catalogue.ts'
import { errorResponses } from '../openapi/errors.ts'
import { headerObjects } from '../openapi/headers.ts'
import { HEALTH_SCHEMA } from '../openapi/responses.ts'

const healthContent = { 'application/json': { schema: HEALTH_SCHEMA } }

function healthResponse(context: AppContext, codecs: CodecCheck): Response {
  const redis = context.access.limiter.dependency
  const status = context.lifecycle.draining ? 'draining' : codecs.ok ? 'ok' : 'degraded'
  const body = {
    status,
    version: VERSION,
    uptimeSeconds: context.lifecycle.uptimeSeconds(),
    engine: engineVersions(),
    queue: context.queue.stats,
    uploads: { usedBytes: context.uploads.usedBytes, budgetBytes: context.uploads.budgetBytes },
    codecs,
    // An unreachable Redis is shown, not turned into a 503: that would take every instance out
    // of its load balancer at once, while each can still serve.
    ...(redis ? { dependencies: { redis } } : {}),
  }
  return Response.json(body, {
    status: status === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  })
}

export function healthRoutes(context: AppContext) {
  return new Elysia().get(
    endpointOf('health').path,
    // Synchronous once the first codec check has ended: health must answer while every worker
    // is busy, and a pipelined request behind an async handler can lose its response (see
    // tests/http/pipelining.test.ts).
    () => {
      const codecs = context.codecs.current()
      return codecs
        ? healthResponse(context, codecs)
        : context.codecs.first().then((c) => healthResponse(context, c))
    },
    {
      detail: {
        operationId: 'getHealth',
        tags: ['Service'],
        summary: 'Health and readiness',
        description:
          'Reports the version, the engine, the queue and memory budgets, and the last codec check (a tiny image encoded and decoded in every output format, at start-up and every 30 s in the background; health never waits for it). 503 with status "degraded" if that check failed, or "draining" during graceful shutdown.',
        responses: {
          '200': {
            description: 'Healthy.',
            headers: headerObjects(headersOn('health')),
            content: healthContent,
          },
          '503': {
            description: 'Degraded (a codec failed) or draining (shutting down).',
            headers: headerObjects(headersOn('health')),
            content: healthContent,
          },
          ...errorResponses(OPERATION_ERRORS.health),
        },
      },
    },
  )
}

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

/** The pool, and a word when it cannot keep its workers (crashing in a loop, failing to start). */
function workersOf(context: AppContext) {
  const pool = context.executor.status()
  const short = pool.ready && pool.alive < pool.size
  const detail = `${pool.alive} of ${pool.size} workers alive, ${pool.restartsLastMinute} restarted in the last minute`
  return { ...pool, ...(short ? { detail } : {}) }
}

const CODEC_CHECK_SECONDS = 30

function retryAfterSeconds(context: AppContext, status: string): number {
  return status === 'draining'
    ? Math.max(1, Math.ceil(context.config.drainDelayMs / 1000))
    : CODEC_CHECK_SECONDS
}

function healthResponse(context: AppContext, codecs: CodecCheck): Response {
  const redis = context.access.limiter.dependency
  const workers = workersOf(context)
  // Fewer workers than asked for still serve, slower: degraded, but no reason to pull the instance.
  const status = context.lifecycle.draining ? 'draining' : !codecs.ok || workers.detail ? 'degraded' : 'ok'
  const body = {
    status,
    version: VERSION,
    uptimeSeconds: context.lifecycle.uptimeSeconds(),
    engine: engineVersions(),
    queue: context.queue.stats,
    workers,
    uploads: { usedBytes: context.uploads.usedBytes, budgetBytes: context.uploads.budgetBytes },
    codecs,
    // An unreachable Redis is shown, not turned into a 503: that would take every instance out
    // of its load balancer at once, while each can still serve.
    ...(redis ? { dependencies: { redis } } : {}),
  }
  const httpStatus = status === 'ok' || (status === 'degraded' && codecs.ok) ? 200 : 503
  return Response.json(body, {
    status: httpStatus,
    // Like every 503: when to look again. Draining ends within the drain delay; a failed codec
    // check is repeated every 30 s.
    headers: {
      'cache-control': 'no-store',
      ...(httpStatus === 503 ? { 'retry-after': String(retryAfterSeconds(context, status)) } : {}),
    },
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
          'Reports the version, the engine, the queue and memory budgets, the worker processes, and the last codec check (a tiny image encoded and decoded in every output format, at start-up and every 30 s in the background; health never waits for it). 503 with status "degraded" if that check failed, or "draining" during graceful shutdown; 200 with status "degraded" while fewer workers are alive than configured.',
        responses: {
          '200': {
            description: 'Healthy.',
            headers: headerObjects(headersOn('health')),
            content: healthContent,
          },
          '503': {
            description:
              'Degraded (a codec failed) or draining (shutting down); Retry-After says when to look again.',
            headers: { ...headerObjects(headersOn('health')), ...headerObjects(['Retry-After'], true) },
            content: healthContent,
          },
          ...errorResponses(OPERATION_ERRORS.health),
        },
      },
    },
  )
}

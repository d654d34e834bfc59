import { Elysia } from 'elysia'
import type { OpenAPIV3 } from 'openapi-types'
import type { AppContext } from '../app-context.ts'
import { OUTPUT_FORMATS } from '../image/format-table.ts'
import type { CodecCheck } from '../image/self-test.ts'
import { engineVersions } from '../image/sharp.ts'
import { VERSION } from '../version.ts'
import { headersOn } from '../http/headers.ts'
import { errorResponses } from '../openapi/errors.ts'
import { headerObjects } from '../openapi/headers.ts'

const HEALTH_SCHEMA: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['status', 'version', 'uptimeSeconds', 'engine', 'queue', 'uploads', 'codecs'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'draining'], example: 'ok' },
    version: { type: 'string', example: VERSION },
    uptimeSeconds: { type: 'integer', example: 3600 },
    engine: {
      type: 'object',
      required: ['sharp', 'libvips'],
      properties: {
        sharp: { type: 'string', example: '0.35.5' },
        libvips: { type: 'string', example: '8.18.7' },
      },
    },
    queue: {
      type: 'object',
      description:
        'Jobs being processed; requests admitted but not yet processing (uploading, probed or queued); how many may wait; and the decode memory the running jobs reserve out of its budget.',
      required: ['running', 'waiting', 'capacity', 'memoryBytes'],
      properties: {
        running: { type: 'integer' },
        waiting: { type: 'integer' },
        capacity: { type: 'integer' },
        memoryBytes: {
          type: 'object',
          required: ['used', 'budget'],
          properties: { used: { type: 'integer' }, budget: { type: 'integer' } },
        },
      },
    },
    uploads: {
      type: 'object',
      description:
        'Bytes of request bodies held now, and the budget they share (IMGAPI_UPLOAD_BUDGET_BYTES).',
      required: ['usedBytes', 'budgetBytes'],
      properties: { usedBytes: { type: 'integer' }, budgetBytes: { type: 'integer' } },
    },
    codecs: {
      type: 'object',
      description:
        'Result of the last check that encodes and decodes a tiny image in every output format; it runs at start-up and every 30 s in the background, and health never waits for it.',
      required: ['ok', 'checkedAt', 'formats'],
      properties: {
        ok: { type: 'boolean' },
        checkedAt: { type: 'string', format: 'date-time' },
        formats: {
          type: 'object',
          description: 'For each output format, whether its check passed.',
          properties: Object.fromEntries(OUTPUT_FORMATS.map((id) => [id, { type: 'boolean' }])),
          additionalProperties: false,
        },
      },
    },
  },
}

const healthContent = { 'application/json': { schema: HEALTH_SCHEMA } }

function healthResponse(context: AppContext, codecs: CodecCheck): Response {
  const status = context.lifecycle.draining ? 'draining' : codecs.ok ? 'ok' : 'degraded'
  const body = {
    status,
    version: VERSION,
    uptimeSeconds: context.lifecycle.uptimeSeconds(),
    engine: engineVersions(),
    queue: context.queue.stats,
    uploads: { usedBytes: context.uploads.usedBytes, budgetBytes: context.uploads.budgetBytes },
    codecs,
  }
  return Response.json(body, {
    status: status === 'ok' ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  })
}

export function healthRoutes(context: AppContext) {
  return new Elysia().get(
    '/api/health',
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
          ...errorResponses(['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'INTERNAL']),
        },
      },
    },
  )
}

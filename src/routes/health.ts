import { Elysia } from 'elysia'
import type { OpenAPIV3 } from 'openapi-types'
import type { AppContext } from '../app-context.ts'
import { engineVersions } from '../image/sharp.ts'
import { VERSION } from '../version.ts'
import { errorResponses } from '../openapi/errors.ts'

const HEALTH_SCHEMA: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['status', 'version', 'uptimeSeconds', 'engine', 'queue', 'codecs'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'draining'], example: 'ok' },
    version: { type: 'string', example: VERSION },
    uptimeSeconds: { type: 'integer', example: 3600 },
    engine: {
      type: 'object',
      properties: {
        sharp: { type: 'string', example: '0.35.5' },
        libvips: { type: 'string', example: '8.18.7' },
      },
    },
    queue: {
      type: 'object',
      description: 'Jobs being processed, jobs waiting, and how many may wait.',
      properties: {
        running: { type: 'integer' },
        waiting: { type: 'integer' },
        capacity: { type: 'integer' },
      },
    },
    codecs: {
      type: 'object',
      description: 'Result of encoding and decoding a tiny image in every output format (cached for 5 s).',
      properties: {
        ok: { type: 'boolean' },
        checkedAt: { type: 'string', format: 'date-time' },
        formats: {
          type: 'object',
          additionalProperties: { type: 'boolean' },
          example: { jpeg: true, png: true },
        },
      },
    },
  },
}

const healthContent = { 'application/json': { schema: HEALTH_SCHEMA } }

export function healthRoutes(context: AppContext) {
  return new Elysia().get(
    '/api/health',
    async () => {
      const codecs = await context.codecCheck()
      const status = context.lifecycle.draining ? 'draining' : codecs.ok ? 'ok' : 'degraded'
      const body = {
        status,
        version: VERSION,
        uptimeSeconds: context.lifecycle.uptimeSeconds(),
        engine: engineVersions(),
        queue: context.queue.stats,
        codecs,
      }
      return Response.json(body, {
        status: status === 'ok' ? 200 : 503,
        headers: { 'cache-control': 'no-store' },
      })
    },
    {
      detail: {
        tags: ['Service'],
        summary: 'Health and readiness',
        description:
          'Proves the image codecs work by encoding and decoding a tiny image in every output format (cached for a few seconds, so probes stay cheap). 503 with status "degraded" if that fails, or "draining" during graceful shutdown.',
        responses: {
          '200': { description: 'Healthy.', content: healthContent },
          '503': {
            description: 'Degraded (a codec failed) or draining (shutting down).',
            content: healthContent,
          },
          ...errorResponses(['METHOD_NOT_ALLOWED', 'INTERNAL']),
        },
      },
    },
  )
}

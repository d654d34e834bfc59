import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { endpointOf } from '../endpoints.ts'
import { headersOn } from '../http/headers.ts'
import { etagOf, notModified } from '../http/conditional.ts'
import { requireScreened } from '../http/screened.ts'
import { addVary } from '../http/vary.ts'
import { publishedFormats } from '../image/formats.ts'
import { publishedLimits } from '../http/published-limits.ts'
import type { Config } from '../config.ts'
import { OPERATION_ERRORS } from '../errors/catalogue.ts'
import { errorResponses } from '../openapi/errors.ts'
import { headerObjects } from '../openapi/headers.ts'
import { KEY_REQUIRED } from '../openapi/security.ts'
import { FORMATS_SCHEMA } from '../openapi/responses.ts'

/** The body never changes while the process runs, so it is built and hashed once. */
function buildBody(config: Config): { json: string; etag: string } {
  const json = JSON.stringify({ formats: publishedFormats(), limits: publishedLimits(config) })
  return { json, etag: etagOf(json) }
}

export function formatsRoutes(context: AppContext) {
  let body: { json: string; etag: string } | undefined
  return new Elysia().get(
    endpointOf('formats').path,
    ({ request, set }) => {
      if (context.access.needsKey('formats')) requireScreened(request, 'formats')
      body ??= buildBody(context.config)
      addVary(set.headers, 'Accept-Encoding')
      const headers = { etag: body.etag, 'cache-control': 'public, max-age=3600' }
      return (
        notModified(request, headers) ??
        new Response(body.json, { headers: { ...headers, 'content-type': 'application/json' } })
      )
    },
    {
      detail: {
        operationId: 'listFormats',
        ...(context.access.needsKey('formats') ? { security: KEY_REQUIRED } : {}),
        tags: ['Service'],
        summary: 'Formats this server reads and writes, and its limits',
        description:
          "Derived at run time from the libvips build (what it can read and write), a declared table (MIME types, extensions, tunables with ranges and defaults) and this server's caps (e.g. the highest AVIF effort). `limits` gives what a client needs to check a file before uploading it and to pace its requests. Cacheable: send If-None-Match with the ETag to get 304.",
        parameters: [
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description:
              'The ETag of a formats list you already have, or * for any: if it is current the answer is 304 with no body.',
            schema: { type: 'string', maxLength: 256, pattern: '^[\\u0020-\\u007e]*$' },
          },
        ],
        responses: {
          '200': {
            description: 'The formats.',
            headers: headerObjects(headersOn('formats')),
            content: { 'application/json': { schema: FORMATS_SCHEMA } },
          },
          '304': {
            description: 'Not modified: the ETag sent in If-None-Match is current (or it was *).',
            headers: headerObjects(['X-Request-Id', 'ETag', 'Cache-Control', 'Vary']),
          },
          ...errorResponses(
            context.access.needsKey('formats')
              ? ['UNAUTHORIZED', ...OPERATION_ERRORS.formats]
              : OPERATION_ERRORS.formats,
          ),
        },
      },
    },
  )
}

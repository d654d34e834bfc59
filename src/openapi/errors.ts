import { en } from '../i18n.ts'
import { carriesRetryAfter, ERROR_CATALOGUE, errorTypeUri, type ErrorCode } from '../errors/catalogue.ts'

export const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem details, the shape of every error.',
  required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
  properties: {
    type: {
      type: 'string',
      description: 'Link to the documentation of this error code.',
      example: '/docs/errors#CORRUPT_IMAGE',
    },
    title: { type: 'string', description: 'Short summary of the error code.', example: 'Corrupt image' },
    status: { type: 'integer', description: 'HTTP status, repeated.', example: 422 },
    detail: { type: 'string', description: 'What was expected and what was received.' },
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CATALOGUE),
      description: 'Stable machine-readable code.',
    },
    requestId: { type: 'string', description: 'Same as the X-Request-Id header; quote it in bug reports.' },
    instance: { type: 'string', description: 'Path of the request.', example: '/api/compress' },
    errors: {
      type: 'array',
      description: 'For INVALID_PARAMETER: each invalid field.',
      items: {
        type: 'object',
        required: ['name', 'reason'],
        properties: { name: { type: 'string', example: 'quality' }, reason: { type: 'string' } },
      },
    },
  },
}

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' }

/** OpenAPI responses for the given codes, grouped by status, each code with an example. */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      String(status),
      {
        description: group.map((code) => `${code}: ${en.errors[code].description}`).join('\n\n'),
        ...(group.some(carriesRetryAfter)
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying.',
                  schema: { type: 'integer' },
                },
              },
            }
          : {}),
        content: {
          'application/problem+json': {
            schema: PROBLEM_REF,
            examples: Object.fromEntries(
              group.map((code) => [
                code,
                {
                  summary: en.errors[code].title,
                  value: {
                    type: errorTypeUri(code),
                    title: en.errors[code].title,
                    status,
                    detail: en.errors[code].description,
                    code,
                    requestId: '3f2b8c1e-8d52-4a8e-9a57-0c1f1d2e3a4b',
                  },
                },
              ]),
            ),
          },
        },
      },
    ]),
  )
}

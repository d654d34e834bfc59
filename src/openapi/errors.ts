import { en } from '../i18n.ts'
import { MAX_DETAIL_CHARS, MAX_LISTED_ERRORS, MAX_REASON_CHARS } from '../errors/echo.ts'
import { ERROR_CATALOGUE, errorTypeUri, type ErrorCode } from '../errors/catalogue.ts'
import { errorHeaders, type ErrorHeaderContext } from './error-headers.ts'

/**
 * RFC 9457 problem details, the shape of every error. The bounds are real: what an error echoes
 * is clipped (errors/echo.ts), so a client can rely on them.
 */
const text = (maxLength: number, description: string, example?: string) => ({
  type: 'string',
  maxLength,
  // Plain text: what the request sent is quoted as JSON, so no control character gets through.
  pattern: '^[^\\u0000-\\u001f]*$',
  description,
  ...(example ? { example } : {}),
})

export const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem details, the shape of every error.',
  required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      maxLength: 64,
      description: 'Link to the documentation of this error code.',
      example: '/docs/errors#CORRUPT_IMAGE',
    },
    title: text(
      200,
      'Short summary of the error code, in the language Accept-Language asked for.',
      'Corrupt image',
    ),
    status: {
      type: 'integer',
      format: 'int32',
      minimum: 400,
      maximum: 599,
      description: 'HTTP status, repeated.',
      example: 422,
    },
    detail: text(
      MAX_DETAIL_CHARS,
      'What was expected and what was received; values from the request are clipped to about 100 characters.',
    ),
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CATALOGUE),
      description: 'Stable machine-readable code.',
    },
    requestId: {
      type: 'string',
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
      maxLength: 128,
      description: 'Same as the X-Request-Id header; quote it in bug reports.',
    },
    instance: text(256, 'Path of the request, clipped.', '/api/compress'),
    errors: {
      type: 'array',
      maxItems: MAX_LISTED_ERRORS,
      description: `For INVALID_PARAMETER: each invalid field, at most ${MAX_LISTED_ERRORS}.`,
      items: {
        type: 'object',
        required: ['name', 'reason'],
        properties: {
          name: text(256, 'The option or field.', 'quality'),
          reason: text(MAX_REASON_CHARS, 'What was expected and what was received.'),
        },
      },
    },
    errorsOmitted: {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 2147483647,
      description: 'How many more invalid fields there were than errors lists.',
    },
    smallestBytes: {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 2147483647,
      description:
        'For TARGET_UNREACHABLE, and PROCESSING_TIMEOUT when a byte target ran out of time: the smallest output the search reached, in bytes.',
    },
    originStatus: {
      type: 'integer',
      format: 'int32',
      minimum: 100,
      maximum: 599,
      description: 'For SOURCE_FAILED: the HTTP status the origin of the url answered.',
    },
  },
}

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' }

/** OpenAPI responses for the given codes, grouped by status, each code with an example. */
export function errorResponses(
  codes: readonly ErrorCode[],
  context: ErrorHeaderContext = {},
): Record<string, unknown> {
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
        headers: errorHeaders(group, context),
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

import type { OpenAPIV3 } from 'openapi-types'
import { OUTPUT_FORMATS, FORMAT_TABLE } from '../image/format-table.ts'
import { CompressOptionsSchema, OPTION_NAMES, optionSchema } from '../options/schema.ts'
import { errorResponses } from './errors.ts'
import { toOpenApiSchema } from './schema.ts'

const binary: OpenAPIV3.SchemaObject = { type: 'string', format: 'binary' }

const header = (
  description: string,
  type: 'string' | 'integer' | 'number' = 'string',
): OpenAPIV3.HeaderObject => ({
  description,
  schema: { type },
})

const RESULT_PROPERTIES: Record<string, OpenAPIV3.SchemaObject> = {
  result: { type: 'string', enum: ['compressed', 'optimised', 'original'] },
  filename: { type: 'string', example: 'photo.webp' },
  mime: { type: 'string', example: 'image/webp' },
  originalSize: { type: 'integer', example: 494563 },
  compressedSize: { type: 'integer', example: 120331 },
  compressionRatio: { type: 'number', example: 0.2433 },
  originalFormat: { type: 'string', example: 'jpeg' },
  outputFormat: { type: 'string', example: 'webp' },
  width: { type: 'integer', example: 2560 },
  height: { type: 'integer', example: 1600 },
  frames: { type: 'integer', example: 1 },
  quality: { type: 'integer', example: 80, description: 'Absent for lossless output.' },
  ignoredOptions: {
    type: 'array',
    items: { type: 'string' },
    description: 'Options given that do not apply to this output.',
  },
  data: {
    type: 'string',
    description: 'The image as a base64 data: URL.',
    example: 'data:image/webp;base64,UklGR...',
  },
}

export const COMPRESS_OPENAPI = {
  tags: ['Images'],
  summary: 'Compress or convert an image',
  description: [
    'Send the image either as multipart/form-data (field `file`, options as form fields or in the query string) or as the raw request body (options in the query string). The input format is detected from the bytes, never from the file name or Content-Type.',
    'The response is the image itself with X-* headers describing the result, or, with `Accept: application/json`, a JSON envelope with the same facts and the image as a base64 data: URL.',
    'Never larger: when the output format is the input format and the re-encode would be larger, the service returns a lossless optimisation of the input (metadata removed, pixels untouched) or the input itself, whenever that keeps what was asked; X-Result says which.',
  ].join('\n\n'),
  parameters: OPTION_NAMES.map((name): OpenAPIV3.ParameterObject => ({
    name,
    in: 'query',
    required: false,
    description: optionSchema(name).description as string,
    schema: toOpenApiSchema(optionSchema(name)),
  })),
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { ...binary, description: 'The image.' },
            ...(toOpenApiSchema(CompressOptionsSchema).properties as Record<string, OpenAPIV3.SchemaObject>),
          },
        },
      },
      'image/*': { schema: binary },
      'application/octet-stream': { schema: binary },
    },
  },
  responses: {
    '200': {
      description: 'The compressed image (or the JSON envelope with Accept: application/json).',
      headers: {
        'Content-Disposition': header('inline; filename="<original base name>.<new extension>"'),
        'X-Original-Size': header('Input size in bytes.', 'integer'),
        'X-Compressed-Size': header('Output size in bytes.', 'integer'),
        'X-Compression-Ratio': header('Output size / input size, 4 decimals.', 'number'),
        'X-Original-Format': header('Detected input format.'),
        'X-Output-Format': header('Output format.'),
        'X-Image-Width': header('Output width in pixels.', 'integer'),
        'X-Image-Height': header('Output height in pixels (one frame).', 'integer'),
        'X-Quality': header(
          'Quality used; absent for lossless output or when the input was returned.',
          'integer',
        ),
        'X-Result': header(
          'compressed (re-encoded), optimised (input losslessly stripped of metadata) or original (input returned).',
        ),
        'X-Ignored-Options': header('Options given that do not apply to this output format.'),
        'Server-Timing': header('read, probe, queue, process and total durations in ms.'),
        'X-Request-Id': header('Request identifier, also in the log.'),
      },
      content: {
        ...Object.fromEntries(OUTPUT_FORMATS.map((id) => [FORMAT_TABLE[id].mime, { schema: binary }])),
        'application/json': { schema: { type: 'object', properties: RESULT_PROPERTIES } },
      },
    },
    ...errorResponses([
      'INVALID_PARAMETER',
      'MISSING_FILE',
      'MALFORMED_REQUEST',
      'METHOD_NOT_ALLOWED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'CORRUPT_IMAGE',
      'IMAGE_TOO_LARGE',
      'OVERLOADED',
      'PROCESSING_TIMEOUT',
      'INTERNAL',
    ]),
  },
} satisfies Partial<OpenAPIV3.OperationObject>

import type { OpenAPIV3 } from 'openapi-types'
import { OUTPUT_FORMATS, FORMAT_TABLE } from '../formats/format-table.ts'
import { OPERATION_ERRORS } from '../errors/catalogue.ts'
import { headersOn } from '../http/headers.ts'
import { translator } from '../i18n.ts'
import { ENGLISH_FIGURES } from '../options/figures.ts'
import { OPTION_NAMES, serverOptionSchema, type OptionName } from '../options/schema.ts'
import { errorResponses } from './errors.ts'
import { headerObjects } from './headers.ts'
import { RESULT_SCHEMA } from './responses.ts'
import { toOpenApiSchema } from './schema.ts'
import { KEY_REQUIRED } from './security.ts'

const binary: OpenAPIV3.SchemaObject = { type: 'string', format: 'binary' }

export interface CompressDocLimits {
  readonly maxUploadBytes: number
  readonly maxOutputDimension: number
}

/** An option's English description, with the measured figures it quotes filled in. */
const describe = (name: OptionName): string =>
  translator('en')(`options.${name}.description`, ENGLISH_FIGURES)

/** An option's schema as this server enforces it: width and height are capped by its output limit. */
function optionParameterSchema(name: OptionName, limits: CompressDocLimits) {
  return { ...toOpenApiSchema(serverOptionSchema(name, limits)), description: describe(name) }
}

/** The compress operation, generated from the option schema, the header table and the limits in force. */
export function compressOpenApi(limits: CompressDocLimits, keysRequired: boolean) {
  const options = Object.fromEntries(OPTION_NAMES.map((name) => [name, optionParameterSchema(name, limits)]))
  return {
    operationId: 'compressImage',
    ...(keysRequired ? { security: KEY_REQUIRED } : {}),
    tags: ['Images'],
    summary: 'Compress or convert an image',
    description: [
      'Send the image either as multipart/form-data (field `file`, options as form fields or in the query string) or as the raw request body (options in the query string). Any Content-Type other than multipart/form-data is taken as the raw image, so `curl --data-binary` (which sends application/x-www-form-urlencoded) works too. The input format is detected from the bytes, never from the file name or Content-Type.',
      'The response is the image itself with X-* headers describing the result, or, with `Accept: application/json`, a JSON envelope with the same facts and the image as a base64 data: URL.',
      'Never larger: when the output format is the input format and the re-encode would be larger, the service returns a lossless optimisation of the input (metadata removed, pixels untouched) or the input itself, whenever that keeps what was asked; X-Result says which.',
    ].join('\n\n'),
    parameters: OPTION_NAMES.map((name): OpenAPIV3.ParameterObject => ({
      name,
      in: 'query',
      required: false,
      description: describe(name),
      schema: options[name] as OpenAPIV3.SchemaObject,
    })),
    requestBody: {
      required: true,
      description: `The image, from 1 to ${limits.maxUploadBytes} bytes, in a multipart field \`file\` or as the whole body; an empty one is refused with 400 MISSING_FILE.`,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: {
                ...binary,
                minLength: 1,
                maxLength: limits.maxUploadBytes,
                description: `The image, from 1 to ${limits.maxUploadBytes} bytes. An empty file is refused with 400 MISSING_FILE.`,
              },
              overlay: {
                ...binary,
                maxLength: limits.maxUploadBytes,
                description: `A watermark to lay on the image (PNG, WebP or SVG; any format the server reads but HEIC and JPEG XL), placed by overlayPosition, overlayOpacity, overlayWidth, overlayMargin and overlayTile; its first frame on every frame of an animation. It passes the same checks as the image, and the two together may be at most ${limits.maxUploadBytes} bytes.`,
              },
              ...options,
            },
          },
        },
        '*/*': { schema: { ...binary, minLength: 1, maxLength: limits.maxUploadBytes } },
      },
    },
    responses: {
      '200': {
        description: 'The compressed image (or the JSON envelope with Accept: application/json).',
        headers: headerObjects(headersOn('compress')),
        content: {
          ...Object.fromEntries(OUTPUT_FORMATS.map((id) => [FORMAT_TABLE[id].mime, { schema: binary }])),
          'application/json': { schema: RESULT_SCHEMA },
        },
      },
      ...errorResponses(
        keysRequired ? ['UNAUTHORIZED', ...OPERATION_ERRORS.compress] : OPERATION_ERRORS.compress,
        { rateLimited: true },
      ),
    },
  } satisfies Partial<OpenAPIV3.OperationObject>
}

import type { OpenAPIV3 } from 'openapi-types'
import { OUTPUT_FORMATS, FORMAT_TABLE } from '../formats/format-table.ts'
import { OPERATION_ERRORS } from '../errors/catalogue.ts'
import { headersOn } from '../http/headers.ts'
import { translator } from '../i18n.ts'
import { ENGLISH_FIGURES } from '../options/figures.ts'
import { OPTION_NAMES, serverOptionSchema, type OptionName } from '../options/schema.ts'
import { JSON_BODY_BYTES } from '../http/read-json-body.ts'
import { errorResponses } from './errors.ts'
import { headerObjects } from './headers.ts'
import { RESULT_SCHEMA, STORED_RESULT_SCHEMA, variantsSchema } from './responses.ts'
import { PROBLEM_SCHEMA } from './errors.ts'
import { VARIANTS_TEXT_BYTES } from '../options/variants.ts'
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

/** `variants` in a query parameter or a form field: JSON text of the array a JSON body holds natively. */
function asText(schema: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject {
  return {
    type: 'string',
    maxLength: VARIANTS_TEXT_BYTES,
    // JSON text of an array; the server parses it and checks every entry by the array's schema.
    pattern: '^\\s*\\[[\\s\\S]*\\]\\s*$',
    description: `${schema.description} As JSON text here: at most ${VARIANTS_TEXT_BYTES} bytes.`,
    example: JSON.stringify(schema.example ?? (schema as { examples?: unknown[] }).examples?.[0]),
  }
}

/** The compress operation, generated from the option schema, the header table and the limits in force. */
export function compressOpenApi(limits: CompressDocLimits, keysRequired: boolean) {
  const native = Object.fromEntries(OPTION_NAMES.map((name) => [name, optionParameterSchema(name, limits)]))
  const options: Record<string, unknown> = {
    ...native,
    variants: asText(native.variants as OpenAPIV3.SchemaObject),
  }
  return {
    operationId: 'compressImage',
    ...(keysRequired ? { security: KEY_REQUIRED } : {}),
    tags: ['Images'],
    summary: 'Compress or convert an image',
    description: [
      'Send the image as multipart/form-data (field `file`, options as form fields or in the query string) or as the raw request body (options in the query string), or name it instead: `url` in the query string, a form field, or a JSON body (`Content-Type: application/json`, the url and the options as its members, in their JSON types). A request sends an image or a url, never both. Any Content-Type other than multipart/form-data and application/json is taken as the raw image, so `curl --data-binary` (which sends application/x-www-form-urlencoded) works too. The input format is detected from the bytes, never from the file name or Content-Type.',
      'A url is fetched by the server: only from the public internet (ports 80 and 443) unless its IMGAPI_URL_ALLOW names more, and never from loopback, private, link-local or metadata addresses in any spelling (400 URL_NOT_ALLOWED). An origin that fails is 502 SOURCE_FAILED, one too slow 504 SOURCE_TIMEOUT; the answer is what an upload of the same bytes gets, with X-Source-Url.',
      'The response is the image itself with X-* headers describing the result, or, with `Accept: application/json`, a JSON envelope with the same facts and the image as a base64 data: URL.',
      "Several outputs from one upload: `variants`, a JSON array of option objects (width, height, fit, format, quality, maxBytes…), each over the request's own options. The image is read and probed once, variants that differ only in their encoding share one decode and resize, and each comes out byte for byte as the same request alone would. The answer is a ZIP (Accept: application/zip, */* or none) with one entry per image and a manifest.json, or JSON (Accept: application/json) with a `variants` array; an Accept that allows neither (image/* alone) is 406 NOT_ACCEPTABLE. A variant that fails (a maxBytes it cannot reach) is listed with its problem while the others are answered; when every one fails, the first one's error is the answer.",
      "Stored instead of sent: `store=s3://bucket/prefix/<key template>` writes the answer (or each variant) to the server's S3-compatible storage, under one of the destinations its operator set in IMGAPI_STORE, and nowhere else (400 STORE_NOT_ALLOWED, before any work, also for a key leaving its prefix or two variants on one key). The answer is then always the JSON envelope, each stored output with `stored` (bucket, key, bytes, etag, url, and with storeSignedUrlExpires a presigned signedUrl) in place of `data`. An existing object is replaced only with storeOverwrite=true (else 409 STORE_EXISTS for that output); each object is one PUT, never partial. With variants, each entry has its `stored` or its `problem`, so a client can clean up; a request none of whose outputs could be stored is 502 STORE_FAILED (with Retry-After), or 409 STORE_EXISTS when every key was taken.",
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
      required: false,
      description: `The image, from 1 to ${limits.maxUploadBytes} bytes, in a multipart field \`file\` or as the whole body; or its url, in a JSON body, a form field or the query string. Neither is refused with 400 MISSING_FILE.`,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
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
        'application/json': {
          schema: {
            type: 'object',
            description: `The image named by its url, and the options, each as a member in its JSON type (numbers, booleans, strings; null is refused). At most ${JSON_BODY_BYTES} bytes.`,
            required: ['url'],
            additionalProperties: false,
            properties: native,
          },
        },
        '*/*': { schema: { ...binary, minLength: 1, maxLength: limits.maxUploadBytes } },
      },
    },
    responses: {
      '200': {
        description:
          'The compressed image (or the JSON envelope with Accept: application/json); with variants, a ZIP of the images and their manifest.json, or the JSON envelope of every variant.',
        headers: headerObjects(headersOn('compress')),
        content: {
          ...Object.fromEntries(OUTPUT_FORMATS.map((id) => [FORMAT_TABLE[id].mime, { schema: binary }])),
          'application/zip': { schema: binary },
          'application/json': {
            schema: {
              oneOf: [
                RESULT_SCHEMA,
                variantsSchema(PROBLEM_SCHEMA as OpenAPIV3.SchemaObject),
                STORED_RESULT_SCHEMA,
              ],
            },
          },
        },
      },
      ...errorResponses(
        keysRequired ? ['UNAUTHORIZED', ...OPERATION_ERRORS.compress] : OPERATION_ERRORS.compress,
        { rateLimited: true },
      ),
    },
  } satisfies Partial<OpenAPIV3.OperationObject>
}

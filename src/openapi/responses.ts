import type { OpenAPIV3 } from 'openapi-types'
import { RESULT_KINDS } from '../http/headers.ts'
import { PUBLISHED_LIMITS } from '../http/published-limits.ts'
import { en } from '../i18n.ts'
import { OUTPUT_FORMATS, type Tunables } from '../formats/format-table.ts'
import { VERSION } from '../version.ts'

/**
 * The JSON bodies of the three endpoints, declared once: the OpenAPI document shows them, and
 * the docs reference lists their fields. Field descriptions live in locales/<lng>.json under
 * fields.<endpoint>.<field>.
 */
type Endpoint = keyof typeof en.fields

/** Adds each property's description (top level, and of array items) from the English locale. */
function described(endpoint: Endpoint, schema: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject {
  const texts = en.fields[endpoint] as Record<string, string>
  const properties = schema.properties as Record<string, OpenAPIV3.SchemaObject>
  for (const [name, property] of Object.entries(properties)) {
    if (texts[name]) property.description = texts[name]
    const items = property.type === 'array' ? (property.items as OpenAPIV3.SchemaObject) : undefined
    if (items?.properties) described(endpoint, items)
  }
  return schema
}

export const HEALTH_SCHEMA: OpenAPIV3.SchemaObject = described('health', {
  type: 'object',
  required: ['status', 'version', 'uptimeSeconds', 'engine', 'queue', 'workers', 'uploads', 'codecs'],
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
    workers: {
      type: 'object',
      required: ['kind', 'alive', 'size', 'restartsLastMinute', 'ready'],
      properties: {
        kind: { type: 'string', enum: ['processes', 'in-process'] },
        alive: { type: 'integer' },
        size: { type: 'integer' },
        restartsLastMinute: { type: 'integer' },
        ready: { type: 'boolean' },
        detail: { type: 'string' },
      },
    },
    uploads: {
      type: 'object',
      required: ['usedBytes', 'budgetBytes'],
      properties: { usedBytes: { type: 'integer' }, budgetBytes: { type: 'integer' } },
    },
    dependencies: {
      type: 'object',
      properties: {
        redis: {
          type: 'object',
          required: ['status', 'since'],
          properties: {
            status: { type: 'string', enum: ['up', 'down'] },
            since: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
    codecs: {
      type: 'object',
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
})

const RANGE: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['min', 'max', 'default'],
  properties: { min: { type: 'integer' }, max: { type: 'integer' }, default: { type: 'integer' } },
}
const EFFORT: OpenAPIV3.SchemaObject = {
  ...RANGE,
  properties: {
    ...RANGE.properties,
    default: {
      type: 'integer',
      description: 'The default effort; with defaultByPixels, the effort for the smallest outputs.',
    },
    defaultByPixels: {
      type: 'array',
      description:
        'The default effort by output pixels (width x height x frames): the first step whose maxPixels holds the output, else the last. The same on every server of this version; an effort asked for is used as it is.',
      items: {
        type: 'object',
        required: ['maxPixels', 'effort'],
        properties: { maxPixels: { type: 'integer', minimum: 1 }, effort: { type: 'integer' } },
      },
    },
  },
}
const FLAG: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['default'],
  properties: { default: { type: 'boolean' } },
}

/** One schema for each tunable the formats table declares: a new tunable fails to compile here. */
const TUNABLES_SCHEMA = {
  quality: RANGE,
  minQuality: {
    ...RANGE,
    description:
      'The lowest quality a maxBytes search may use when the request names no minQuality; for PNG and GIF, a share of 256 palette colours.',
  },
  effort: EFFORT,
  lossless: FLAG,
  progressive: FLAG,
  smartSubsample: FLAG,
  chromaSubsampling: {
    type: 'object',
    required: ['values', 'default'],
    properties: {
      values: { type: 'array', items: { type: 'string' } },
      default: { type: 'string' },
    },
  },
} satisfies Record<keyof Tunables, OpenAPIV3.SchemaObject>

/** Each published limit is a setting: its description is the setting's. */
const LIMITS_SCHEMA: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: [...PUBLISHED_LIMITS],
  properties: Object.fromEntries(
    PUBLISHED_LIMITS.map((name) => [
      name,
      { type: 'integer', minimum: 1, description: en.settings[name].description },
    ]),
  ),
  additionalProperties: false,
}

export const FORMATS_SCHEMA: OpenAPIV3.SchemaObject = described('formats', {
  type: 'object',
  required: ['formats', 'limits'],
  properties: {
    formats: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'mime',
          'extensions',
          'aliases',
          'input',
          'output',
          'animated',
          'alpha',
          'lossless',
          'metadata',
          'tunables',
        ],
        properties: {
          id: { type: 'string', example: 'webp' },
          mime: { type: 'string', example: 'image/webp' },
          extensions: { type: 'array', items: { type: 'string' }, example: ['webp'] },
          aliases: { type: 'array', items: { type: 'string' } },
          input: { type: 'boolean' },
          output: { type: 'boolean' },
          animated: { type: 'boolean' },
          alpha: { type: 'boolean' },
          lossless: { type: 'boolean' },
          metadata: { type: 'boolean' },
          decoder: {
            type: 'object',
            description: 'For inputs libvips cannot read itself: the WebAssembly decoder that reads them.',
            required: ['name', 'version'],
            properties: {
              name: { type: 'string', example: 'libheif' },
              version: { type: 'string', example: '1.23.2' },
            },
          },
          tunables: { type: 'object', properties: TUNABLES_SCHEMA },
        },
      },
    },
    limits: LIMITS_SCHEMA,
  },
})

export const RESULT_SCHEMA: OpenAPIV3.SchemaObject = described('compress', {
  type: 'object',
  // Always sent; quality, similarity and resizedToFit only when they apply.
  required: [
    'result',
    'filename',
    'mime',
    'originalSize',
    'compressedSize',
    'compressionRatio',
    'originalFormat',
    'outputFormat',
    'width',
    'height',
    'frames',
    'ignoredOptions',
    'encodes',
    'data',
  ],
  properties: {
    result: { type: 'string', enum: [...RESULT_KINDS] },
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
    quality: { type: 'integer', example: 80 },
    ignoredOptions: {
      type: 'array',
      items: { type: 'string' },
    },
    encodes: { type: 'integer', example: 1 },
    similarity: {
      type: 'object',
      required: ['metric', 'score'],
      properties: {
        metric: { type: 'string', enum: ['ssim'] },
        score: { type: 'number', example: 0.9931 },
      },
    },
    resizedToFit: {
      type: 'object',
      required: ['width', 'height'],
      properties: {
        width: { type: 'integer', example: 1200 },
        height: { type: 'integer', example: 800 },
      },
    },
    sourceUrl: {
      type: 'string',
      description:
        'When the request named its image by url: the URL it was fetched from, after redirects, without its query string or user name.',
      example: 'https://images.example.com/photo.jpg',
    },
    data: {
      type: 'string',
      example: 'data:image/webp;base64,UklGR...',
    },
  },
})

/** Where a stored output went (the store option): the envelope carries it in place of data. */
const STORED_SCHEMA: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['bucket', 'key', 'bytes', 'etag', 'url'],
  properties: {
    bucket: { type: 'string', example: 'images' },
    key: { type: 'string', maxLength: 1024, example: 'uploads/photo-800.3f2a9c1e5b7d4a60.webp' },
    bytes: { type: 'integer', minimum: 0, example: 120331 },
    etag: { type: 'string', example: '5289df737df57326fcdd22597afb1fac' },
    url: { type: 'string', format: 'uri', example: 'https://s3.example.com/images/uploads/photo-800.webp' },
    signedUrl: { type: 'string', format: 'uri' },
    signedUrlExpiresAt: { type: 'string', format: 'date-time' },
  },
}

/** The single image's envelope when it was stored: `stored`, and no `data`. */
export const STORED_RESULT_SCHEMA: OpenAPIV3.SchemaObject = described('compress', {
  ...RESULT_SCHEMA,
  required: [...RESULT_SCHEMA.required!.filter((name) => name !== 'data'), 'stored'],
  properties: {
    ...Object.fromEntries(Object.entries(RESULT_SCHEMA.properties!).filter(([name]) => name !== 'data')),
    stored: { ...STORED_SCHEMA },
  },
})

const VARIANT_FIELDS = described('compressVariants', {
  type: 'object',
  properties: {
    index: { type: 'integer', minimum: 0, example: 0 },
    problem: { type: 'object' },
    stored: { ...STORED_SCHEMA },
  },
})

/**
 * The answer to a request with variants, as JSON (Accept: application/json) and as the ZIP's
 * manifest.json (the same, without `data`): one entry per variant, in the request's order, with
 * the fields of a single image's envelope, or the problem that variant ran into.
 */
export function variantsSchema(problem: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject {
  const fields = VARIANT_FIELDS.properties as Record<string, OpenAPIV3.SchemaObject>
  return described('compressVariants', {
    type: 'object',
    required: ['originalFormat', 'originalSize', 'variants'],
    properties: {
      sourceUrl: (RESULT_SCHEMA.properties as Record<string, OpenAPIV3.SchemaObject>).sourceUrl!,
      originalFormat: { type: 'string', example: 'jpeg' },
      originalSize: { type: 'integer', example: 494563 },
      variants: {
        type: 'array',
        items: {
          oneOf: [
            {
              ...RESULT_SCHEMA,
              required: [...RESULT_SCHEMA.required!.filter((name) => name !== 'data'), 'index'],
              properties: { index: fields.index!, ...RESULT_SCHEMA.properties, stored: fields.stored! },
            },
            {
              type: 'object',
              required: ['index', 'problem'],
              properties: {
                index: fields.index!,
                problem: { ...problem, description: fields.problem!.description },
              },
            },
          ],
        },
      },
    },
  })
}

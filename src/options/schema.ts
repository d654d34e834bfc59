import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox'
import { IMAGE_OPTIONS } from './image-options.ts'
import { StringEnum } from './string-enum.ts'
import { VARIANT_OPTIONS, type VariantOptionName } from './variant-options.ts'
import { FORMAT_NAMES, isPacked, resolveFormatName, type FormatName } from '../formats/format-table.ts'

// TypeBox refuses a format it has no check for; a URL's is the WHATWG parser's, which the fetch
// uses too (what it accepts beyond http and https, the URL-source guard refuses by name).
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', (value) => URL.canParse(value))

/** Words `quality` takes besides numbers: the levels of similarity auto-quality aims for. */
export const AUTO_QUALITIES = ['auto', 'auto-high', 'auto-medium', 'auto-low'] as const
export type AutoQuality = (typeof AUTO_QUALITIES)[number]

/** A comma-separated list of output format names, as `formats` takes it. */
/** format=auto never chooses a packed container (ICO), so `formats` cannot list one. */
const CANDIDATE_NAMES = FORMAT_NAMES.filter((name) => !isPacked(resolveFormatName(name)!))
const FORMAT_LIST = `^\\s*(${CANDIDATE_NAMES.join('|')})\\s*(,\\s*(${CANDIDATE_NAMES.join('|')})\\s*)*$`
/** A side of an ICO image: 1 to 256 pixels. */
const ICO_SIDE = '(25[0-6]|2[0-4]\\d|1\\d\\d|[1-9]\\d?)'

/**
 * Every option of POST /api/compress, declared once. This schema drives validation, the
 * TypeScript types, the OpenAPI parameters, the docs reference and the tester form. Bounds here
 * are the widest any format allows; per-format ranges live in the formats table. The words that
 * describe each option are in locales/<lng>.json under options.<name>, read by the HTTP edge:
 * the image core that validates with this schema loads no translations.
 */
const PROPERTIES = {
  // Where the image comes from when the request does not carry it; fetched by the HTTP edge
  // through the URL-source guard (src/source/), never by the image core.
  url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 8192,
      format: 'uri',
      examples: ['https://images.example.com/photo.jpg'],
      'x-expected': 'an absolute http or https URL, or s3://bucket/key, of at most 8192 characters',
      'x-kind': 'url',
    }),
  ),
  format: Type.Optional(
    StringEnum<'original' | 'auto' | FormatName>(['original', 'auto', ...FORMAT_NAMES], {
      default: 'original',
      examples: ['webp'],
    }),
  ),
  formats: Type.Optional(
    Type.String({
      pattern: FORMAT_LIST,
      maxLength: 64,
      examples: ['avif,webp'],
      'x-expected': 'a comma-separated list of output formats, such as avif,webp',
      'x-kind': 'formatList',
      'x-lowercase': true,
    }),
  ),
  quality: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), StringEnum<AutoQuality>(AUTO_QUALITIES)], {
      examples: [75],
    }),
  ),
  maxBytes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      examples: [100_000],
    }),
  ),
  // No `default` here: each format declares its own floor, which GET /api/formats publishes.
  minQuality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, examples: [30] })),
  allowResize: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  lossless: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  // No `default` here: each format declares its own, which GET /api/formats publishes.
  progressive: Type.Optional(Type.Boolean({ examples: [true] })),
  smartSubsample: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  effort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, examples: [4] })),
  chromaSubsampling: Type.Optional(
    StringEnum(['4:2:0', '4:4:4'], {
      examples: ['4:4:4'],
    }),
  ),
  icoSizes: Type.Optional(
    Type.String({
      pattern: `^\\s*${ICO_SIDE}\\s*(,\\s*${ICO_SIDE}\\s*){0,9}$`,
      maxLength: 64,
      default: '16,32,48',
      examples: ['16,32,48,256'],
      'x-expected': 'up to ten sizes in pixels from 1 to 256, comma-separated, such as 16,32,48',
      'x-kind': 'sizeList',
    }),
  ),
  background: Type.Optional(
    Type.String({
      pattern: '^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
      maxLength: 7,
      default: '#ffffff',
      examples: ['#ffffff'],
      'x-expected': 'a hex colour such as #fff or #ffffff',
      'x-kind': 'hexColour',
    }),
  ),
  ...IMAGE_OPTIONS,
  metadata: Type.Optional(
    StringEnum(['strip', 'keep', 'copyright', 'icc'], {
      default: 'strip',
      examples: ['strip'],
    }),
  ),
}

// Each per-variant name is an option of the schema: a name the schema lacks fails to compile.
VARIANT_OPTIONS satisfies readonly (keyof typeof PROPERTIES)[]
export { VARIANT_OPTIONS, type VariantOptionName }

/** Entries `variants` may list at most, whatever the server allows (IMGAPI_MAX_VARIANTS narrows it). */
export const MAX_VARIANTS = 64

const VariantSchema = Type.Object(
  Object.fromEntries(VARIANT_OPTIONS.map((name) => [name, PROPERTIES[name]])) as Pick<
    typeof PROPERTIES,
    VariantOptionName
  >,
  { additionalProperties: false },
)

export const CompressOptionsSchema = Type.Object(
  {
    ...PROPERTIES,
    // Several outputs from one upload: each entry's options over the request's own.
    variants: Type.Optional(
      Type.Array(VariantSchema, {
        minItems: 1,
        maxItems: MAX_VARIANTS,
        examples: [
          [
            { width: 400, format: 'webp' },
            { width: 800, format: 'avif' },
          ],
        ],
        'x-expected': 'a JSON array of option objects, such as [{"width":400,"format":"webp"}]',
        'x-kind': 'variants',
      }),
    ),
    // Where the HTTP edge writes the outputs instead of answering them (src/store/): a place
    // under one of the server's IMGAPI_STORE destinations, then a key template.
    store: Type.Optional(
      Type.String({
        minLength: 6,
        maxLength: 1100,
        pattern: '^s3://',
        examples: ['s3://images/uploads/{name}-{width}.{hash}.{ext}'],
        'x-expected':
          'an s3://bucket/prefix/ URL followed by a key template, such as s3://images/uploads/{name}-{width}.{ext}',
        'x-kind': 'storeUrl',
      }),
    ),
    storeOverwrite: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
    // SigV4's longest validity: seven days.
    storeSignedUrlExpires: Type.Optional(Type.Integer({ minimum: 1, maximum: 604_800, examples: [3600] })),
  },
  { additionalProperties: false },
)

export type OptionName = keyof typeof CompressOptionsSchema.properties

type WithDefaults =
  | 'format'
  | 'lossless'
  | 'allowResize'
  | 'background'
  | 'fit'
  | 'withoutEnlargement'
  | 'metadata'
  | 'flip'
  | 'flop'
  | 'icoSizes'
  | 'position'
  | 'dpr'
  | 'brightness'
  | 'saturation'
  | 'hue'
  | 'contrast'
  | 'greyscale'
  | 'normalise'
  | 'overlayPosition'
  | 'overlayOpacity'
  | 'overlayMargin'
  | 'overlayTile'
  | 'storeOverwrite'
type Raw = Static<typeof CompressOptionsSchema>

/** Options after validation: defaults filled in, the rest possibly absent. */
export type CompressOptions = Required<Pick<Raw, WithDefaults>> & Omit<Raw, WithDefaults>

export const OPTION_NAMES = Object.keys(CompressOptionsSchema.properties) as OptionName[]

export function optionSchema(name: OptionName): TSchema {
  return CompressOptionsSchema.properties[name]
}

/** What narrows the declared ranges on a running server. */
export interface OptionLimits {
  readonly maxOutputDimension: number
  /** IMGAPI_MAX_VARIANTS: entries `variants` may list. */
  readonly maxVariants?: number
}

/**
 * An option's schema as a server with these limits enforces it: width and height up to its
 * output limit. Validation, its error messages and the OpenAPI document all read this one.
 */
export function serverOptionSchema(name: OptionName, limits: OptionLimits): TSchema {
  const schema = optionSchema(name)
  if (name === 'variants' && limits.maxVariants !== undefined)
    return { ...schema, maxItems: Math.min(MAX_VARIANTS, limits.maxVariants) }
  if (name !== 'width' && name !== 'height') return schema
  return { ...schema, maximum: Math.min(schema.maximum as number, limits.maxOutputDimension) }
}

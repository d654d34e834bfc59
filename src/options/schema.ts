import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { IMAGE_OPTIONS } from './image-options.ts'
import { StringEnum } from './string-enum.ts'
import { FORMAT_NAMES, isPacked, resolveFormatName, type FormatName } from '../formats/format-table.ts'

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
export const CompressOptionsSchema = Type.Object(
  {
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
}

/**
 * An option's schema as a server with these limits enforces it: width and height up to its
 * output limit. Validation, its error messages and the OpenAPI document all read this one.
 */
export function serverOptionSchema(name: OptionName, limits: OptionLimits): TSchema {
  const schema = optionSchema(name)
  if (name !== 'width' && name !== 'height') return schema
  return { ...schema, maximum: Math.min(schema.maximum as number, limits.maxOutputDimension) }
}

/*
 * The names of the options each entry of `variants` may set: what differs between the outputs
 * of one upload (their size and their encoding). Everything else (orientation, crop, trim, turn
 * and mirror, and the steps after the resize) is given once for the whole request. Apart from
 * the schema so the web tools can split a request's options into the shared and the per-variant
 * ones without bundling the schema; schema.ts checks each name against its options.
 */

export const VARIANT_OPTIONS = [
  'width',
  'height',
  'fit',
  'position',
  'dpr',
  'withoutEnlargement',
  'format',
  'formats',
  'quality',
  'minQuality',
  'maxBytes',
  'allowResize',
  'lossless',
  'effort',
  'progressive',
  'chromaSubsampling',
  'smartSubsample',
  'icoSizes',
] as const

export type VariantOptionName = (typeof VARIANT_OPTIONS)[number]

/**
 * The per-variant options whose JSON value is a string even when it reads as a number (`icoSizes`
 * of "48"); the others are numbers, booleans, or (quality) a number or a word.
 * tests/options/variant-options.test.ts holds this list to the schema.
 */
export const VARIANT_TEXT_OPTIONS: readonly VariantOptionName[] = [
  'fit',
  'position',
  'format',
  'formats',
  'chromaSubsampling',
  'icoSizes',
]

import { describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { parseCompressOptions } from '../../src/options/parse.ts'
import { optionSchema } from '../../src/options/schema.ts'
import { VARIANT_OPTIONS, VARIANT_TEXT_OPTIONS } from '../../src/options/variant-options.ts'
import { sharedOptions, variantOptions } from '../../static/kit/api/variants.ts'

/** Whether the schema takes a string only: an enum of words or a pattern, never a number. */
const textOnly = (schema: TSchema): boolean =>
  Array.isArray(schema.anyOf)
    ? (schema.anyOf as TSchema[]).every(textOnly)
    : schema.type === 'string' ||
      (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))

describe('the per-variant option names the web tools read', () => {
  test('name as text exactly the per-variant options whose schema takes only strings', () => {
    const text = VARIANT_OPTIONS.filter((name) => textOnly(optionSchema(name)))
    expect([...VARIANT_TEXT_OPTIONS].sort()).toEqual([...text].sort())
  })
})

describe('the tools split a request alone into shared options and a variant the server takes', () => {
  const alone = new URLSearchParams({
    format: 'ico',
    icoSizes: '48',
    width: '640',
    height: '480',
    fit: 'cover',
    position: 'attention',
    dpr: '1.5',
    withoutEnlargement: 'false',
    quality: 'auto-high',
    effort: '4',
    chromaSubsampling: '4:4:4',
    background: '#123456',
    rotate: '90',
  })

  test('each option keeps its meaning: the variant over the shared options reads as the request alone', () => {
    const shared = sharedOptions(alone)
    const variant = variantOptions(alone)
    expect([...shared.keys()].sort()).toEqual(['background', 'rotate'])
    expect(variant).toMatchObject({ icoSizes: '48', width: 640, dpr: 1.5, withoutEnlargement: false })
    const raw = new Map<string, string | { json: unknown }>([...shared])
    raw.set('variants', JSON.stringify([variant]))
    const together = parseCompressOptions(raw)
    const { variants, ...rest } = together
    expect({ ...rest, ...variants![0] }).toEqual(parseCompressOptions(new Map([...alone])))
  })
})

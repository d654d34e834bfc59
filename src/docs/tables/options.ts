import type { TSchema } from '@sinclair/typebox'
import { optionFigures } from '../../options/figures.ts'
import { OPTION_NAMES, optionSchema, type OptionName } from '../../options/schema.ts'
import { html, type Html } from '../../site/html.ts'
import type { PageContext } from '../page-context.ts'
import { listOf } from '../lists.ts'
import { code, table } from './table.ts'

/** What an option accepts, in words and identifiers, from its schema (capped by this server). */
function accepts(ctx: PageContext, name: string, schema: TSchema): Html {
  const { t, valueNumbers: numbers } = ctx
  if (Array.isArray(schema.anyOf))
    return listOf(
      ctx.language.code,
      (schema.anyOf as TSchema[]).map((branch) => accepts(ctx, name, branch)),
    )
  if (Array.isArray(schema.enum))
    return html`${t('site.reference.types.oneOf')} ${listOf(
      ctx.language.code,
      (schema.enum as string[]).map((v) => code(v)),
    )}`
  if (schema.type === 'boolean') return html`${t('site.reference.types.boolean')}`
  if (schema.type === 'integer') {
    const max =
      name === 'width' || name === 'height' ? ctx.app.config.maxOutputDimension : (schema.maximum as number)
    return html`${t('site.reference.types.integer', { min: numbers.integer(schema.minimum as number), max: numbers.integer(max) })}`
  }
  if (schema.type === 'number')
    return html`${t('site.reference.types.number', { min: numbers.decimal(schema.minimum as number), max: numbers.decimal(schema.maximum as number) })}`
  // Text in a shape of its own (a colour, a region, a list) is named by its kind.
  if (typeof schema['x-kind'] === 'string') return html`${t(`site.reference.types.${schema['x-kind']}`)}`
  return html`${t('site.reference.types.string')}`
}

/**
 * An option's description in the reader's language; the figures it quotes in Latin digits, like
 * the ranges and defaults beside them, so a row never mixes two sets of digits.
 */
export function optionDescription(ctx: PageContext, name: OptionName): string {
  return ctx.t(`options.${name}.description`, optionFigures(ctx.valueNumbers))
}

export function optionsTable(ctx: PageContext): Html {
  const { t } = ctx
  return table({
    headers: [
      t('site.common.name'),
      t('site.common.values'),
      t('site.common.default'),
      t('site.common.description'),
    ],
    rows: OPTION_NAMES.map((name) => {
      const schema = optionSchema(name)
      const fallback = schema.default === undefined ? t('site.common.none') : code(String(schema.default))
      return [code(name), accepts(ctx, name, schema), fallback, optionDescription(ctx, name)]
    }),
    rowIds: OPTION_NAMES.map((name) => `option-${name}`),
  })
}

import type { TSchema } from '@sinclair/typebox'
import type { Config } from '../config.ts'
import { OPTION_NAMES, serverOptionSchema, type OptionName } from '../options/schema.ts'

/**
 * Each option of POST /api/compress as the tools' controls need it, from the schema that
 * validates requests on this server: a control is generated from its kind, range, values and
 * default, so an option the API gains (position, dpr…) arrives in the tools with its bounds.
 */
export type OptionFacts =
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly default?: string }
  | { readonly kind: 'boolean'; readonly default?: boolean }
  | { readonly kind: 'integer'; readonly min?: number; readonly max?: number; readonly default?: number }
  /** A number with a fraction (dpr, brightness…). */
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number; readonly default?: number }
  | {
      readonly kind: 'integer-or-word'
      readonly min?: number
      readonly max?: number
      readonly words: string[]
    }
  | {
      readonly kind: 'text'
      readonly pattern?: string
      readonly maxLength?: number
      readonly default?: string
    }

function factsOf(schema: TSchema): OptionFacts {
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as TSchema[]
    const number = branches.find((branch) => branch.type === 'integer')
    const words = branches.flatMap((branch) => (branch.enum as string[] | undefined) ?? [])
    return { kind: 'integer-or-word', min: number?.minimum, max: number?.maximum, words }
  }
  if (Array.isArray(schema.enum))
    return { kind: 'enum', values: schema.enum as string[], default: schema.default }
  if (schema.type === 'boolean') return { kind: 'boolean', default: schema.default }
  if (schema.type === 'integer' || schema.type === 'number')
    return { kind: schema.type, min: schema.minimum, max: schema.maximum, default: schema.default }
  return { kind: 'text', pattern: schema.pattern, maxLength: schema.maxLength, default: schema.default }
}

export function optionFacts(config: Config): Partial<Record<OptionName, OptionFacts>> {
  return Object.fromEntries(OPTION_NAMES.map((name) => [name, factsOf(serverOptionSchema(name, config))]))
}

import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { AppError, type FieldError } from '../errors/app-error.ts'
import { OPTION_NAMES, optionSchema, type CompressOptions, type OptionName } from './schema.ts'

/** Human phrase for what a field accepts, derived from its schema so it never drifts. */
export function describeExpected(schema: TSchema): string {
  if (typeof schema['x-expected'] === 'string') return schema['x-expected']
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`
  if (schema.type === 'boolean') return 'true or false'
  if (schema.type === 'integer') return `an integer from ${schema.minimum} to ${schema.maximum}`
  return String(schema.type)
}

/** Strict string-to-value conversion: "80.5" is not an integer and "yes" is not a boolean. */
function convert(schema: TSchema, text: string): unknown {
  if (schema.type === 'integer') return /^[+-]?\d+$/.test(text) ? Number(text) : text
  if (schema.type === 'boolean')
    return ({ true: true, false: false, '1': true, '0': false } as const)[text] ?? text
  return text
}

function isOptionName(name: string): name is OptionName {
  return (OPTION_NAMES as string[]).includes(name)
}

/**
 * Validates options given as strings (query string or form fields) and fills defaults.
 * Every bad field is reported at once, each naming what was expected and what was received.
 */
export function parseCompressOptions(raw: Readonly<Record<string, string>>): CompressOptions {
  const errors: FieldError[] = []
  const options: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (!isOptionName(name)) {
      errors.push({ name, reason: `unknown option; expected one of ${OPTION_NAMES.join(', ')}` })
      continue
    }
    const schema = optionSchema(name)
    const converted = convert(schema, value.trim())
    if (!Value.Check(schema, converted)) {
      errors.push({ name, reason: `expected ${describeExpected(schema)}, received ${JSON.stringify(value)}` })
      continue
    }
    options[name] = converted
  }
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.name}: ${e.reason}`).join('; ')
    throw new AppError('INVALID_PARAMETER', detail, { errors })
  }
  for (const name of OPTION_NAMES) {
    const fallback = optionSchema(name).default
    if (options[name] === undefined && fallback !== undefined) options[name] = fallback
  }
  return options as CompressOptions
}

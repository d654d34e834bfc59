import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { type FieldError, invalidParameters } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'
import {
  OPTION_NAMES,
  optionSchema,
  serverOptionSchema,
  type CompressOptions,
  type OptionLimits,
  type OptionName,
} from './schema.ts'

/**
 * How option values given as text (query string or form fields) are read; the README's
 * "Option values" rules and tests/options/parse.test.ts pin the same table:
 * - surrounding white space is ignored, for every option;
 * - an empty value is an error, never "use the default" (leave the option out for that);
 * - integers are plain decimal digits (`80`, not `80.0`, `8e1` or `0x50`), and numbers may have a
 *   fraction after a point (`0.5`, `1.25`); a minus sign only where the range goes below zero;
 * - booleans are `true`/`false`/`1`/`0`, and words (booleans, formats, fits) ignore case.
 */
export function describeExpected(schema: TSchema): string {
  if (typeof schema['x-expected'] === 'string') return schema['x-expected']
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(describeExpected).join(', or ')
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`
  if (schema.type === 'boolean') return 'true or false'
  if (schema.type === 'integer') return `an integer from ${schema.minimum} to ${schema.maximum}`
  if (schema.type === 'number') return `a number from ${schema.minimum} to ${schema.maximum}`
  return String(schema.type)
}

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false }

/** The typed value, or undefined when the text cannot be one. */
function convert(schema: TSchema, text: string): unknown {
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf as TSchema[]) {
      const value = convert(branch, text)
      if (value !== undefined && Value.Check(branch, value)) return value
    }
    return undefined
  }
  if (schema['x-lowercase']) return text.toLowerCase()
  const sign = (schema.minimum as number) < 0 ? '-?' : ''
  if (schema.type === 'integer') return new RegExp(`^${sign}\\d{1,15}$`).test(text) ? Number(text) : undefined
  if (schema.type === 'number')
    return new RegExp(`^${sign}\\d{1,15}(\\.\\d{1,15})?$`).test(text) ? Number(text) : undefined
  if (schema.type === 'boolean') return BOOLEANS[text.toLowerCase()]
  if (Array.isArray(schema.enum))
    return schema.enum.find((v: string) => v.toLowerCase() === text.toLowerCase())
  return text
}

function isOptionName(name: string): name is OptionName {
  return (OPTION_NAMES as string[]).includes(name)
}

function received(value: string): string {
  return value.trim() === '' ? `an empty value (${echo(value)})` : echo(value)
}

/**
 * Validates options and fills defaults. Every bad field is reported at once, each naming
 * what was expected and what was received.
 */
export function parseCompressOptions(
  raw: ReadonlyMap<string, string>,
  limits: OptionLimits = { maxOutputDimension: Number.MAX_SAFE_INTEGER },
): CompressOptions {
  const errors: FieldError[] = []
  const options: Record<string, unknown> = {}
  for (const [name, value] of raw) {
    if (!isOptionName(name)) {
      errors.push({ name, reason: `unknown option; expected one of ${OPTION_NAMES.join(', ')}` })
      continue
    }
    const schema = serverOptionSchema(name, limits)
    const converted = convert(schema, value.trim())
    if (converted === undefined || !Value.Check(schema, converted)) {
      errors.push({ name, reason: `expected ${describeExpected(schema)}, received ${received(value)}` })
      continue
    }
    options[name] = converted
  }
  if (errors.length > 0) throw invalidParameters(errors)
  for (const name of OPTION_NAMES) {
    const fallback = optionSchema(name).default
    if (options[name] === undefined && fallback !== undefined) options[name] = fallback
  }
  return options as CompressOptions
}

import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { type FieldError, invalidParameters } from '../errors/app-error.ts'
import { clip, echo } from '../errors/echo.ts'
import { closestName } from './closest-name.ts'
import { parseVariants } from './variants.ts'
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
 * rules above its options table and tests/options/parse.test.ts pin the same table:
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

function received(value: string): string {
  return value.trim() === '' ? `an empty value (${echo(value)})` : echo(value)
}

/**
 * An option's value as a request carries it: text (the query string, a form field), or a
 * member of a JSON body, which keeps its JSON type: numbers, booleans and strings as the
 * schema types them (a JSON body's "80" for quality is a string, not a number).
 */
export type OptionInput = string | { readonly json: unknown }

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value

/** A JSON value the schema takes as it is; a word in any case, as in text. */
function fromJson(schema: TSchema, value: unknown): unknown {
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf as TSchema[]) {
      const typed = fromJson(branch, value)
      if (typed !== undefined && Value.Check(branch, typed)) return typed
    }
    return undefined
  }
  // Text rules for strings where the schema takes a string (white space around ignored, words
  // in any case); a string where it takes a number stays a string, and is refused.
  if (typeof value === 'string' && (schema.type === 'string' || Array.isArray(schema.enum)))
    return convert(schema, value.trim())
  return value
}

export type ParsedValue = { readonly value: unknown } | { readonly reason: string }

/** One option's value, typed and checked against its schema as this server enforces it. */
export function parseOptionValue(name: OptionName, input: OptionInput, limits: OptionLimits): ParsedValue {
  if (name === 'variants') {
    const parsed = parseVariants(input, limits, (member, json) => parseOptionValue(member, { json }, limits))
    if ('value' in parsed) return parsed
    return { reason: parsed.errors.map((error) => `${error.name}: ${error.reason}`).join('; ') }
  }
  const schema = serverOptionSchema(name, limits)
  if (typeof input === 'string') {
    const converted = convert(schema, input.trim())
    if (converted !== undefined && Value.Check(schema, converted)) return { value: converted }
    return { reason: `expected ${describeExpected(schema)}, received ${received(input)}` }
  }
  const typed =
    input.json === null || typeof input.json === 'object' ? undefined : fromJson(schema, input.json)
  if (typed !== undefined && Value.Check(schema, typed)) return { value: typed }
  const shown =
    typeof input.json === 'string' ? echo(input.json) : clip(JSON.stringify(input.json) ?? 'undefined', 100)
  return { reason: `expected ${describeExpected(schema)}, received ${jsonType(input.json)} ${shown}` }
}

export function isOptionName(name: string): name is OptionName {
  return (OPTION_NAMES as string[]).includes(name)
}

/**
 * Validates options and fills defaults. Every bad field is reported at once, each naming
 * what was expected and what was received.
 */
export function parseCompressOptions(
  raw: ReadonlyMap<string, OptionInput>,
  limits: OptionLimits = { maxOutputDimension: Number.MAX_SAFE_INTEGER },
): CompressOptions {
  const errors: FieldError[] = []
  const options: Record<string, unknown> = {}
  let unknown = false
  for (const [name, input] of raw) {
    if (!isOptionName(name)) {
      const meant = closestName(name, OPTION_NAMES)
      errors.push({ name, reason: meant ? `unknown option; did you mean ${meant}?` : 'unknown option' })
      unknown = true
      continue
    }
    if (name === 'variants') {
      // Each bad member is its own field error, named by its place (variants[1].quality).
      const listed = parseVariants(input, limits, (member, json) =>
        parseOptionValue(member, { json }, limits),
      )
      if ('errors' in listed) errors.push(...listed.errors)
      else options[name] = listed.value
      continue
    }
    const parsed = parseOptionValue(name, input, limits)
    if ('reason' in parsed) errors.push({ name, reason: parsed.reason })
    else options[name] = parsed.value
  }
  // The known options are named once per answer, not once per unknown one: 19 unknown options
  // once made a detail of 8,941 characters, past the 8,192 the OpenAPI document promises.
  if (errors.length > 0)
    throw invalidParameters(errors, unknown ? `the options are ${OPTION_NAMES.join(', ')}` : undefined)
  for (const name of OPTION_NAMES) {
    const fallback = optionSchema(name).default
    if (options[name] === undefined && fallback !== undefined) options[name] = fallback
  }
  return options as CompressOptions
}

import type { FieldError } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'
import { closestName } from './closest-name.ts'
import {
  MAX_VARIANTS,
  OPTION_NAMES,
  VARIANT_OPTIONS,
  type OptionLimits,
  type OptionName,
  type VariantOptionName,
} from './schema.ts'

/** One entry of `variants`, validated: the options it sets, over the request's own. */
export type VariantOptions = Readonly<Partial<Record<VariantOptionName, unknown>>>

/** `variants` as text (a query parameter, a form field) is JSON of at most this many bytes. */
export const VARIANTS_TEXT_BYTES = 8192

/** How one member is checked: the option's own parser, given the member's JSON value. */
export type MemberParser = (
  name: OptionName,
  json: unknown,
) => { readonly value: unknown } | { readonly reason: string }

export type ParsedVariants = { readonly value: VariantOptions[] } | { readonly errors: FieldError[] }

const isVariantOption = (name: string): name is VariantOptionName =>
  (VARIANT_OPTIONS as readonly string[]).includes(name)

function memberError(at: string, name: string): FieldError {
  if ((OPTION_NAMES as string[]).includes(name))
    return {
      name: `${at}.${name}`,
      reason: `${name} applies to every output: give it once, outside variants (a variant sets ${VARIANT_OPTIONS.join(', ')})`,
    }
  const meant = closestName(name, VARIANT_OPTIONS)
  return {
    name: `${at}.${name}`,
    reason: meant ? `unknown option; did you mean ${meant}?` : 'unknown option',
  }
}

/**
 * `variants`: a JSON array of option objects, native in a JSON body and JSON text in a query
 * parameter or form field. Each member is checked by its option's own rules, and every bad
 * member is reported at once by its place (`variants[1].quality`).
 */
export function parseVariants(
  input: string | { readonly json: unknown },
  limits: OptionLimits,
  parseMember: MemberParser,
): ParsedVariants {
  const fail = (reason: string): ParsedVariants => ({ errors: [{ name: 'variants', reason }] })
  let list: unknown
  if (typeof input === 'string') {
    if (Buffer.byteLength(input) > VARIANTS_TEXT_BYTES)
      return fail(`expected JSON of at most ${VARIANTS_TEXT_BYTES} bytes, received a longer text`)
    try {
      list = JSON.parse(input)
    } catch {
      return fail(`expected a JSON array of option objects, received text that is not JSON: ${echo(input)}`)
    }
  } else list = input.json
  if (!Array.isArray(list)) return fail('expected a JSON array of option objects, such as [{"width":400}]')
  const most = Math.min(MAX_VARIANTS, limits.maxVariants ?? MAX_VARIANTS)
  if (list.length === 0) return fail('expected at least one variant, received an empty array')
  if (list.length > most)
    return fail(`expected at most ${most} variants (IMGAPI_MAX_VARIANTS), received ${list.length}`)
  const errors: FieldError[] = []
  const value = list.map((entry, index) => {
    const at = `variants[${index}]`
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      errors.push({ name: at, reason: 'expected an object of options, such as {"width":400}' })
      return {}
    }
    const options: Partial<Record<VariantOptionName, unknown>> = {}
    for (const [name, json] of Object.entries(entry)) {
      if (!isVariantOption(name)) {
        errors.push(memberError(at, name))
        continue
      }
      const parsed = parseMember(name, json)
      if ('reason' in parsed) errors.push({ name: `${at}.${name}`, reason: parsed.reason })
      else options[name] = parsed.value
    }
    return options
  })
  return errors.length > 0 ? { errors } : { value }
}

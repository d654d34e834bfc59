import { type FieldError, invalidParameters } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'
import { isOptionName, parseOptionValue, type OptionInput } from '../options/parse.ts'
import type { OptionLimits } from '../options/schema.ts'

/** How an input is quoted in a conflict: text as it came, JSON as JSON. */
const shown = (input: OptionInput) =>
  typeof input === 'string' ? echo(input) : echo(JSON.stringify(input.json) ?? '')

/** Two inputs of one option say the same: as text, or as the values they parse to. */
function sameValue(name: string, a: OptionInput, b: OptionInput, limits: OptionLimits): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b
  if (!isOptionName(name)) return false
  const [x, y] = [parseOptionValue(name, a, limits), parseOptionValue(name, b, limits)]
  return 'value' in x && 'value' in y && JSON.stringify(x.value) === JSON.stringify(y.value)
}

/**
 * Options may come from the query string and from the body: form fields, or the members of a
 * JSON body. A name given twice is refused rather than silently resolved one way or the other
 * (the same value in both places is one value). A Map, not an object: a field called
 * `constructor` or `__proto__` is just another unknown name.
 */
export function collectOptionInputs(
  query: URLSearchParams,
  fields: ReadonlyMap<string, OptionInput>,
  limits: OptionLimits = { maxOutputDimension: Number.MAX_SAFE_INTEGER },
  bodyKind: 'form' | 'JSON body' = 'form',
): Map<string, OptionInput> {
  const merged = new Map<string, OptionInput>()
  const errors: FieldError[] = []
  for (const [name, value] of query) {
    if (merged.has(name))
      errors.push({ name, reason: 'expected the parameter once, received it more than once' })
    else merged.set(name, value)
  }
  for (const [name, value] of fields) {
    const fromQuery = merged.get(name)
    if (fromQuery !== undefined && !sameValue(name, fromQuery, value, limits)) {
      errors.push({
        name,
        reason: `expected one value, received ${shown(fromQuery)} in the query and ${shown(value)} in the ${bodyKind}`,
      })
    } else merged.set(name, value)
  }
  if (errors.length > 0) throw invalidParameters(errors)
  return merged
}

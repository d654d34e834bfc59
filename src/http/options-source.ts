import { type FieldError, invalidParameters } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'

/**
 * Options may come from the query string and, for multipart, from form fields. A name given
 * twice is refused rather than silently resolved one way or the other. A Map, not an object:
 * a field called `constructor` or `__proto__` is just another unknown name.
 */
export function collectOptionInputs(
  query: URLSearchParams,
  fields: ReadonlyMap<string, string>,
): Map<string, string> {
  const merged = new Map<string, string>()
  const errors: FieldError[] = []
  for (const [name, value] of query) {
    if (merged.has(name))
      errors.push({ name, reason: 'expected the parameter once, received it more than once' })
    else merged.set(name, value)
  }
  for (const [name, value] of fields) {
    const fromQuery = merged.get(name)
    if (fromQuery !== undefined && fromQuery !== value) {
      errors.push({
        name,
        reason: `expected one value, received ${echo(fromQuery)} in the query and ${echo(value)} in the form`,
      })
    } else merged.set(name, value)
  }
  if (errors.length > 0) throw invalidParameters(errors)
  return merged
}

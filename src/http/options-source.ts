import { AppError, type FieldError } from '../errors/app-error.ts'

/**
 * Options may come from the query string and, for multipart, from form fields. A name given
 * twice is refused rather than silently resolved one way or the other.
 */
export function collectOptionInputs(
  url: URL,
  fields: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = {}
  const errors: FieldError[] = []
  for (const [name, value] of url.searchParams) {
    if (name in merged)
      errors.push({ name, reason: 'expected the parameter once, received it more than once' })
    else merged[name] = value
  }
  for (const [name, value] of Object.entries(fields)) {
    if (name in merged && merged[name] !== value) {
      errors.push({
        name,
        reason: `expected one value, received "${merged[name]}" in the query and "${value}" in the form`,
      })
    } else merged[name] = value
  }
  if (errors.length > 0) {
    throw new AppError('INVALID_PARAMETER', errors.map((e) => `${e.name}: ${e.reason}`).join('; '), {
      errors,
    })
  }
  return merged
}

/**
 * Where a JSON value departs from an OpenAPI schema object, for the subset the API's schemas
 * use (type, enum, required, properties, additionalProperties, items, oneOf, bounds, pattern,
 * date-time). Stricter than OpenAPI on one point, on purpose: a field the schema does not
 * declare is a departure, so a builder that grows a field fails until the schema shows it. An
 * object schema without `properties` is free-form.
 */
type Schema = Record<string, any>

export function shapeErrors(value: unknown, schema: Schema, at = '$'): string[] {
  if (schema.$ref) throw new Error(`${at}: resolve ${schema.$ref} before checking`)
  if (schema.oneOf) {
    const tries = (schema.oneOf as Schema[]).map((branch) => shapeErrors(value, branch, at))
    return tries.some((errors) => errors.length === 0)
      ? []
      : [`${at}: matches no oneOf branch`, ...tries.flat()]
  }
  if (schema.enum && !schema.enum.includes(value))
    return [`${at}: ${JSON.stringify(value)} is not in the enum`]
  switch (schema.type) {
    case 'object':
      return objectErrors(value, schema, at)
    case 'array':
      if (!Array.isArray(value)) return [`${at}: expected an array`]
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return [`${at}: too many items`]
      return value.flatMap((item, index) => shapeErrors(item, schema.items ?? {}, `${at}[${index}]`))
    case 'string':
      return stringErrors(value, schema, at)
    case 'integer':
    case 'number':
      return numberErrors(value, schema, at)
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: expected a boolean`]
    case undefined:
      return []
    default:
      throw new Error(`${at}: the checker does not know type ${schema.type}`)
  }
}

function objectErrors(value: unknown, schema: Schema, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${at}: expected an object`]
  const fields = value as Record<string, unknown>
  const missing = ((schema.required ?? []) as string[])
    .filter((name) => !(name in fields))
    .map((name) => `${at}.${name}: required, missing`)
  if (!schema.properties) return missing
  const properties = schema.properties as Record<string, Schema>
  const extra = schema.additionalProperties
  return [
    ...missing,
    ...Object.entries(fields).flatMap(([name, field]) => {
      if (properties[name]) return shapeErrors(field, properties[name], `${at}.${name}`)
      if (typeof extra === 'object') return shapeErrors(field, extra, `${at}.${name}`)
      return extra === true ? [] : [`${at}.${name}: not in the schema`]
    }),
  ]
}

function stringErrors(value: unknown, schema: Schema, at: string): string[] {
  if (typeof value !== 'string') return [`${at}: expected a string`]
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return [`${at}: longer than maxLength`]
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return [`${at}: shorter than minLength`]
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value))
    return [`${at}: does not match its pattern`]
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return [`${at}: not a date-time`]
  return []
}

function numberErrors(value: unknown, schema: Schema, at: string): string[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) return [`${at}: expected a number`]
  if (schema.type === 'integer' && !Number.isInteger(value)) return [`${at}: expected an integer`]
  if (schema.minimum !== undefined && value < schema.minimum) return [`${at}: below its minimum`]
  if (schema.maximum !== undefined && value > schema.maximum) return [`${at}: above its maximum`]
  return []
}

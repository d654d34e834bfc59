import type { OpenAPIV3 } from 'openapi-types'
import { headerDescription, RESPONSE_HEADERS, type HeaderName, type HeaderSpec } from '../http/headers.ts'

/** An OpenAPI header object for a header of the table in http/headers.ts. */
export function headerObject(name: HeaderName): OpenAPIV3.HeaderObject {
  const spec: HeaderSpec = RESPONSE_HEADERS[name]
  const schema: OpenAPIV3.SchemaObject =
    spec.type === 'array'
      ? { type: 'array', items: { type: 'string' } }
      : { type: spec.type, ...(spec.enum ? { enum: [...spec.enum] } : {}) }
  return {
    description: headerDescription(name),
    schema,
    ...(spec.type === 'array' ? { style: 'simple' } : {}),
  }
}

export function headerObjects(names: readonly HeaderName[]): Record<string, OpenAPIV3.HeaderObject> {
  return Object.fromEntries(names.map((name) => [name, headerObject(name)]))
}

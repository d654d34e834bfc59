import type { OpenAPIV3 } from 'openapi-types'
import { headerDescription, RESPONSE_HEADERS, type HeaderName, type HeaderSpec } from '../http/headers.ts'

/**
 * An OpenAPI header object for a header of the table in http/headers.ts: required when the
 * table says it is always sent, unless the caller knows better (an error response).
 */
export function headerObject(name: HeaderName, required = !isOptional(name)): OpenAPIV3.HeaderObject {
  const spec: HeaderSpec = RESPONSE_HEADERS[name]
  const schema: OpenAPIV3.SchemaObject =
    spec.type === 'array'
      ? { type: 'array', items: { type: 'string' } }
      : { type: spec.type, ...(spec.enum ? { enum: [...spec.enum] } : {}) }
  return {
    description: headerDescription(name),
    required,
    schema,
    ...(spec.type === 'array' ? { style: 'simple' } : {}),
  }
}

export function headerObjects(
  names: readonly HeaderName[],
  required?: boolean,
): Record<string, OpenAPIV3.HeaderObject> {
  return Object.fromEntries(names.map((name) => [name, headerObject(name, required ?? !isOptional(name))]))
}

const isOptional = (name: HeaderName) => (RESPONSE_HEADERS[name] as HeaderSpec).optional === true

import type { TSchema } from '@sinclair/typebox'

type OpenApiSchema = Record<string, unknown>

const COPIED = [
  'type',
  'enum',
  'minimum',
  'maximum',
  'maxLength',
  'minItems',
  'maxItems',
  'default',
  'description',
  'pattern',
  'format',
] as const

/**
 * TypeBox (JSON Schema) to an OpenAPI 3.0 schema object: 3.0 has `example`, not `examples`,
 * and rejects unknown keywords, so fields are copied explicitly.
 */
export function toOpenApiSchema(schema: TSchema): OpenApiSchema {
  const out: OpenApiSchema = {}
  for (const key of COPIED) if (schema[key] !== undefined) out[key] = schema[key]
  if (Array.isArray(schema.examples) && schema.examples.length > 0) out.example = schema.examples[0]
  // Every integer option fits 32 bits; saying so lets generators and validators pick the type.
  if (schema.type === 'integer' && out.format === undefined) out.format = 'int32'
  if (schema.type === 'object' && schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, TSchema>).map(([k, v]) => [k, toOpenApiSchema(v)]),
    )
    if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required
    if (schema.additionalProperties === false) out.additionalProperties = false
  }
  if (schema.type === 'array' && schema.items) out.items = toOpenApiSchema(schema.items as TSchema)
  // A number or a word (quality): the branches keep their own types, the union its description.
  if (Array.isArray(schema.anyOf)) out.anyOf = (schema.anyOf as TSchema[]).map(toOpenApiSchema)
  return out
}

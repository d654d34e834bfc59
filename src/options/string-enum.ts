import { Kind, TypeRegistry, type SchemaOptions, type TSchema } from '@sinclair/typebox'

/**
 * A string enum that serialises as plain `{ type: 'string', enum: [...] }` in OpenAPI,
 * rather than TypeBox's `anyOf` of literals, and still validates (the registered kind).
 */
export interface TStringEnum<V extends string> extends TSchema {
  [Kind]: 'StringEnum'
  static: V
  type: 'string'
  enum: V[]
}

if (!TypeRegistry.Has('StringEnum')) {
  TypeRegistry.Set<TStringEnum<string>>('StringEnum', (schema, value) =>
    schema.enum.includes(value as string),
  )
}

export function StringEnum<V extends string>(
  values: readonly V[],
  options: SchemaOptions = {},
): TStringEnum<V> {
  return { ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] } as TStringEnum<V>
}

import type { OpenAPIV3 } from 'openapi-types'
import type { Operation } from '../../errors/catalogue.ts'
import { html, type Html } from '../../site/html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

function typeOf(schema: OpenAPIV3.SchemaObject): string {
  if (schema.type === 'array') return `${typeOf(schema.items as OpenAPIV3.SchemaObject)}[]`
  if (schema.enum) return schema.enum.join(' | ')
  return String(schema.type)
}

/** An enumeration as its values, each its own identifier, so a narrow column wraps between them. */
function typeCell(schema: OpenAPIV3.SchemaObject): Html {
  if (!schema.enum) return code(typeOf(schema))
  return html`${schema.enum.map((value, i) => html`${i ? ' | ' : ''}${code(String(value))}`)}`
}

/** The top-level fields of a JSON body, with their types, from the schema the OpenAPI document uses. */
export function fieldsTable(ctx: PageContext, endpoint: Operation, schema: OpenAPIV3.SchemaObject): Html {
  const { t } = ctx
  const properties = Object.entries(schema.properties as Record<string, OpenAPIV3.SchemaObject>)
  return table({
    headers: [t('site.common.field'), t('site.common.type'), t('site.common.description')],
    rows: properties.map(([name, property]) => [
      code(name),
      typeCell(property),
      t(`fields.${endpoint}.${name}`),
    ]),
  })
}

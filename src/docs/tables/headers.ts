import type { Operation } from '../../errors/catalogue.ts'
import { errorHeaders, headersOn, RESPONSE_HEADERS } from '../../http/headers.ts'
import type { Html } from '../../site/html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

/** The response headers of an operation (or of error responses), from the one header table. */
export function headersTable(ctx: PageContext, operation: Operation | 'errors'): Html {
  const { t } = ctx
  const names = operation === 'errors' ? errorHeaders() : headersOn(operation)
  return table({
    headers: [t('site.common.header'), t('site.common.type'), t('site.common.description')],
    rows: names.map((name) => [
      code(name),
      code(RESPONSE_HEADERS[name].type),
      t(`headers.${name}.description`),
    ]),
  })
}

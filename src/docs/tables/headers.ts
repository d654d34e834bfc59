import type { Operation } from '../../errors/catalogue.ts'
import { headersOn, RESPONSE_HEADERS } from '../../http/headers.ts'
import type { Html } from '../html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

/** The response headers of an operation, from the one header table. */
export function headersTable(ctx: PageContext, operation: Operation): Html {
  const { t } = ctx
  return table({
    headers: [t('site.common.header'), t('site.common.type'), t('site.common.description')],
    rows: headersOn(operation).map((name) => [
      code(name),
      code(RESPONSE_HEADERS[name].type),
      t(`headers.${name}.description`),
    ]),
  })
}

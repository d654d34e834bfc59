import { ERROR_CATALOGUE, type ErrorCode } from '../../errors/catalogue.ts'
import { html, type Html } from '../../site/html.ts'
import { areaLink } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { tMarkup } from '../translate.ts'
import { code, table } from './table.ts'

/** The full catalogue: one row per code, anchored by the code so problem `type` links land on it. */
export function errorsTable(ctx: PageContext, codes: readonly ErrorCode[]): Html {
  const { t } = ctx
  return table({
    className: 'errors',
    headers: [
      t('site.common.code'),
      t('site.common.status'),
      t('site.common.meaning'),
      t('site.common.whatToDo'),
    ],
    rows: codes.map((c) => [
      code(c),
      code(String(ERROR_CATALOGUE[c].status)),
      html`<strong>${t(`errors.${c}.title`)}</strong><br>${t(`errors.${c}.description`)}`,
      tMarkup(t, `errors.${c}.action`, { limitsPage: areaLink(ctx, 'rate-limits') }),
    ]),
    rowIds: [...codes],
  })
}

/** A short list of codes linking into the catalogue. */
export function errorLinks(codes: readonly ErrorCode[]): Html {
  return html`<ul class="inline-list">${codes.map((c) => html`<li><a href="#${c}">${code(c)}</a> ${code(String(ERROR_CATALOGUE[c].status))}</li>`)}</ul>`
}

import { publishedFormats, type FormatInfo } from '../../image/formats.ts'
import type { Tunables } from '../../formats/format-table.ts'
import { html, type Html } from '../../site/html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

function tunablesCell(ctx: PageContext, tunables: Tunables): Html {
  const numbers = ctx.valueNumbers
  const items: Html[] = []
  for (const [name, spec] of Object.entries(tunables)) {
    if ('min' in spec)
      items.push(
        html`${code(name)} ${numbers.integer(spec.min)}–${numbers.integer(spec.max)} (${code(String(spec.default))})`,
      )
    else if ('values' in spec)
      items.push(html`${code(name)} ${spec.values.join(', ')} (${code(spec.default)})`)
    else items.push(html`${code(name)} (${code(String(spec.default))})`)
  }
  return html`${items.map((item, i) => html`${i ? html`<br>` : ''}${item}`)}`
}

/** What this server reads and writes, and each output's options, as GET /api/formats says. */
export function formatsTable(ctx: PageContext): Html {
  const { t } = ctx
  const mark = (value: boolean) => (value ? t('site.common.yes') : t('site.common.no'))
  const formats: FormatInfo[] = publishedFormats()
  return table({
    headers: [
      t('site.common.name'),
      t('site.reference.read'),
      t('site.reference.write'),
      t('site.reference.animated'),
      t('site.reference.alpha'),
      t('site.reference.lossless'),
      t('site.reference.metadata'),
      t('site.reference.tunables'),
    ],
    rows: formats.map((f) => [
      html`${code(f.id)}<br><small>${code(f.mime)}</small>`,
      mark(f.input),
      mark(f.output),
      mark(f.animated),
      mark(f.alpha),
      mark(f.lossless),
      mark(f.metadata),
      tunablesCell(ctx, f.tunables),
    ]),
    rowIds: formats.map((f) => `format-${f.id}`),
  })
}

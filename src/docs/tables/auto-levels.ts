import { FORMAT_TABLE, OUTPUT_FORMATS, searchFormat, type OutputFormat } from '../../formats/format-table.ts'
import { AUTO_LEVELS, MIN_QUALITY } from '../../image/search/index.ts'
import { AUTO_QUALITIES, type AutoQuality } from '../../options/schema.ts'
import { html, type Html } from '../../site/html.ts'
import { listOf } from '../lists.ts'
import type { PageContext } from '../page-context.ts'
import { tMarkup } from '../translate.ts'
import { code, table } from './table.ts'

const LEVEL_TEXT: Readonly<Record<AutoQuality, string>> = {
  auto: 'auto',
  'auto-high': 'autoHigh',
  'auto-medium': 'autoMedium',
  'auto-low': 'autoLow',
}

/** The formats a quality applies to; GIF has none, so no level searches one. */
const QUALITY_FORMATS = OUTPUT_FORMATS.filter((format) => 'quality' in FORMAT_TABLE[format].tunables)

/** A level's minimum qualities, the formats that share one named together: "jpeg, webp: 70". */
function minimumQualities(ctx: PageContext, level: AutoQuality): Html {
  const groups = new Map<number, OutputFormat[]>()
  for (const format of QUALITY_FORMATS) {
    const quality = MIN_QUALITY[searchFormat(format)][level]
    groups.set(quality, [...(groups.get(quality) ?? []), format])
  }
  const lines = [...groups].map(([quality, formats]) =>
    tMarkup(ctx.t, 'site.reference.autoLevels.minQualityFor', {
      formats: listOf(ctx.language.code, formats.map(code), 'conjunction'),
      quality: ctx.valueNumbers.integer(quality),
    }),
  )
  return html`${lines.map((line, i) => html`${i ? html`<br>` : ''}${line}`)}`
}

/** The levels in the metric's own units and their quality floors, from the tables the search uses. */
export function autoLevels(ctx: PageContext): Html {
  const { t } = ctx
  return html`<h4 id="similarity">${t('site.reference.autoLevels.title')}</h4>
<p>${t('site.reference.autoLevels.text')}</p>
${table({
  headers: [
    t('site.reference.autoLevels.level'),
    t('site.reference.autoLevels.target'),
    t('site.reference.autoLevels.minQuality'),
    t('site.reference.autoLevels.meaning'),
  ],
  rows: AUTO_QUALITIES.map((level) => [
    code(level),
    ctx.valueNumbers.score(AUTO_LEVELS[level]),
    minimumQualities(ctx, level),
    t(`site.reference.autoLevels.${LEVEL_TEXT[level]}`),
  ]),
})}`
}

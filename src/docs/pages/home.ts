import { html, raw } from '../../site/html.ts'
import { codeBlock } from '../code-block.ts'
import { areaName, type PageContent } from '../layout.ts'
import { AREAS, areaPath, type PageContext } from '../page-context.ts'

const AREA_KEYS = {
  tester: 'tester',
  reference: 'reference',
  examples: 'examples',
  'rate-limits': 'rateLimits',
} as const

export function homePage(ctx: PageContext): PageContent {
  const { t } = ctx
  // The page's script puts the address the reader loaded it from (location.origin) here, through
  // any proxy; without script, this server's own address stands in. Not the request's Host: the
  // page is rendered once for every reader, and a Host header is the client's to choose.
  const origin = html`<span data-origin>http://localhost:${ctx.app.config.port}</span>`
  const command = html`curl -F file=@photo.jpg -F format=webp -F quality=75 -F width=1600 -o photo.webp ${origin}/api/compress`
  const cards = AREAS.map(
    (area) => html`<li><a href="${areaPath(area)}"><strong>${areaName(ctx, area)}</strong></a>
<p>${t(`site.home.${AREA_KEYS[area]}`)}</p></li>`,
  )
  const body = html`<h1>${t('site.home.title')}</h1>
<p class="lead">${t('site.home.lead')}</p>
<h2>${t('site.home.areasTitle')}</h2>
<ul class="cards">${cards}</ul>
<h2>${t('site.home.quickTitle')}</h2>
<p>${t('site.home.quickText')}</p>
${codeBlock(ctx, command, 'bash', { wrap: true })}`
  return { title: t('site.home.title'), body: raw(body.value) }
}

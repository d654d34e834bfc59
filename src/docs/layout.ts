import { asset } from './assets.ts'
import { renderDocument } from './document.ts'
import type { Html } from './html.ts'
import { AREAS, areaPath, type Area, type PageContext } from './page-context.ts'

export interface PageContent {
  readonly title: string
  readonly body: Html
  /** Strings and facts the page's script needs, in the reader's language. */
  readonly data?: Record<string, unknown>
}

const NAV_KEYS: Record<Area, string> = {
  home: 'site.nav.home',
  tester: 'site.nav.tester',
  reference: 'site.nav.reference',
  examples: 'site.nav.examples',
  'rate-limits': 'site.nav.rateLimits',
}

/** Strings every page's script may show (copy buttons), in the reader's language. */
function baseStrings(ctx: PageContext): Record<string, string> {
  const keys = ['site.common.copy', 'site.client.copied', 'site.client.copyFailed']
  return Object.fromEntries(keys.map((key) => [key, ctx.t(key) as string]))
}

export function renderPage(ctx: PageContext, content: PageContent): string {
  const { t } = ctx
  const items = (['home', ...AREAS] as Area[]).map((area) => ({
    href: areaPath(area),
    text: t(NAV_KEYS[area]),
    current: area === ctx.area,
  }))
  return renderDocument({
    t,
    language: ctx.language,
    languages: ctx.languages,
    path: areaPath(ctx.area),
    title: content.title,
    section: 'docs',
    tools: ctx.app.config.tools,
    nav: { label: t('site.nav.label'), items: [...items, { href: '/swagger', text: t('site.nav.openapi') }] },
    stylesheet: asset('site.css').url,
    script: asset('main.js').url,
    data: {
      ...content.data,
      area: ctx.area,
      language: ctx.language.code,
      strings: { ...baseStrings(ctx), ...(content.data?.strings as Record<string, string> | undefined) },
    },
    body: content.body,
  })
}

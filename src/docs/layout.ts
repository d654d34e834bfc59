import { REFERENCE_PATH } from '../endpoints.ts'
import { asset, type AssetName } from '../site/assets.ts'
import { renderDocument } from '../site/document.ts'
import { html, raw, type Html } from '../site/html.ts'
import { AREAS, areaPath, type Area, type PageContext } from './page-context.ts'
import { isolateTokens } from './tokens.ts'

export interface PageContent {
  readonly title: string
  readonly body: Html
  /** Strings and facts the page's script needs, in the reader's language. */
  readonly data?: Record<string, unknown>
  /** A page built from the tools' components loads their script and styles instead of the site's. */
  readonly assets?: { readonly script: AssetName; readonly stylesheet: AssetName }
}

const NAV_KEYS: Record<Area, string> = {
  home: 'site.nav.home',
  tester: 'site.nav.tester',
  reference: 'site.nav.reference',
  examples: 'site.nav.examples',
  'rate-limits': 'site.nav.rateLimits',
}

/** An area's name as the navigation shows it: pages and texts that send readers there use it too. */
export function areaName(ctx: PageContext, area: Area): string {
  return ctx.t(NAV_KEYS[area])
}

/** A link to an area, for a sentence that sends readers there ({{limitsPage}} and the like). */
export function areaLink(ctx: PageContext, area: Area): Html {
  return html`<a href="${areaPath(area)}">${areaName(ctx, area)}</a>`
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
    text: areaName(ctx, area),
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
    nav: {
      label: t('site.nav.label'),
      items: [...items, { href: REFERENCE_PATH, text: t('site.nav.openapi') }],
    },
    stylesheet: asset(content.assets?.stylesheet ?? 'site.css').url,
    script: asset(content.assets?.script ?? 'main.js').url,
    data: {
      ...content.data,
      area: ctx.area,
      language: ctx.language.code,
      strings: { ...baseStrings(ctx), ...(content.data?.strings as Record<string, string> | undefined) },
    },
    // Identifiers in translated prose (header names, option values, paths) kept whole and LTR.
    body: raw(isolateTokens(content.body.value)),
  })
}

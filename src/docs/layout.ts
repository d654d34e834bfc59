import { REFERENCE_PATH } from '../endpoints.ts'
import { VERSION } from '../version.ts'
import { asset } from './assets.ts'
import { attr, html, jsonForScript, type Html } from './html.ts'
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

/** An area's name as the navigation shows it: pages and texts that send readers there use it too. */
export function areaName(ctx: PageContext, area: Area): string {
  return ctx.t(NAV_KEYS[area])
}

/** A link to an area, for a sentence that sends readers there ({{limitsPage}} and the like). */
export function areaLink(ctx: PageContext, area: Area): Html {
  return html`<a href="${areaPath(area)}">${areaName(ctx, area)}</a>`
}

function navigation(ctx: PageContext): Html {
  const items = (['home', ...AREAS] as Area[]).map((area) => {
    const current = area === ctx.area ? 'page' : undefined
    return html`<li><a href="${areaPath(area)}"${attr('aria-current', current)}>${areaName(ctx, area)}</a></li>`
  })
  return html`<nav class="site-nav" aria-label="${ctx.t('site.nav.label')}">
    <ul>
      ${items}
      <li><a href="${REFERENCE_PATH}">${ctx.t('site.nav.openapi')}</a></li>
    </ul>
  </nav>`
}

/** A plain GET form: it works without script, and keeps the reader on the same area. */
function languageSwitcher(ctx: PageContext): Html {
  const options = ctx.languages.map(
    (lang) =>
      html`<option value="${lang.code}" lang="${lang.code}"${attr('selected', lang.code === ctx.language.code)}>${lang.name}</option>`,
  )
  return html`<form class="language" method="get" action="${areaPath(ctx.area)}">
    <label for="language-select">${ctx.t('site.language.label')}</label>
    <select id="language-select" name="lang" data-language-switcher>
      ${options}
    </select>
    <button type="submit" class="language-go">${ctx.t('site.language.go')}</button>
  </form>`
}

function alternates(ctx: PageContext): Html[] {
  const path = areaPath(ctx.area)
  return [
    ...ctx.languages.map(
      (lang) => html`<link rel="alternate" hreflang="${lang.code}" href="${path}?lang=${lang.code}" />`,
    ),
    html`<link rel="alternate" hreflang="x-default" href="${path}" />`,
  ]
}

/** Strings every page's script may show (copy buttons), in the reader's language. */
function baseStrings(ctx: PageContext): Record<string, string> {
  const keys = ['site.common.copy', 'site.client.copied', 'site.client.copyFailed']
  return Object.fromEntries(keys.map((key) => [key, ctx.t(key) as string]))
}

export function renderPage(ctx: PageContext, content: PageContent): string {
  const { language, t } = ctx
  const data = {
    ...content.data,
    area: ctx.area,
    language: language.code,
    strings: { ...baseStrings(ctx), ...(content.data?.strings as Record<string, string> | undefined) },
  }
  const page = html`<!doctype html>
    <html lang="${language.code}" dir="${language.dir}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${content.title} · imgapi</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${asset('site.css').url}" />
        ${alternates(ctx)}
        <script type="module" src="${asset('main.js').url}"></script>
        <script type="application/json" id="page-data">${jsonForScript(data)}</script>
      </head>
      <body>
        <a class="skip-link" href="#main">${t('site.skipLink')}</a>
        <header class="site-header">
          <a class="brand" href="/docs/">imgapi</a>
          ${navigation(ctx)} ${languageSwitcher(ctx)}
        </header>
        <main id="main" tabindex="-1">${content.body}</main>
        <footer class="site-footer">
          <p>${t('site.footer', { version: VERSION })} · <a href="${REFERENCE_PATH}/json">${t('site.nav.spec')}</a></p>
        </footer>
      </body>
    </html> `
  return page.value
}

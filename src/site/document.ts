import { REFERENCE_PATH } from '../endpoints.ts'
import type { TFunction } from 'i18next'
import { VERSION } from '../version.ts'
import type { LanguageInfo } from '../i18n.ts'
import { attr, html, jsonForScript, type Html } from './html.ts'

/**
 * The HTML document every page of the site shares, docs and tools alike: head, one header (brand,
 * the Tools/Documentation switch, the section's navigation, the language switcher), main, footer.
 * Each section brings its own navigation, stylesheet and script.
 */
export type Section = 'tools' | 'docs'

export interface NavItem {
  readonly href: string
  readonly text: string
  readonly current?: boolean
}

export interface DocumentModel {
  readonly t: TFunction
  readonly language: LanguageInfo
  readonly languages: readonly LanguageInfo[]
  /** This page's path: the language switcher and the alternates point at it. */
  readonly path: string
  readonly title: string
  readonly section: Section
  /** Whether this server serves the tools: without them the header has no section switch. */
  readonly tools: boolean
  readonly nav: { readonly label: string; readonly items: readonly NavItem[] }
  readonly stylesheet: string
  readonly script: string
  /** Strings and facts the page's script needs, in the reader's language. */
  readonly data: Record<string, unknown>
  readonly body: Html
}

function navList(items: readonly NavItem[], current: 'page' | 'true'): Html {
  return html`<ul>
    ${items.map(
      (item) =>
        html`<li><a href="${item.href}"${attr('aria-current', item.current ? current : undefined)}>${item.text}</a></li>`,
    )}
  </ul>`
}

function sections(model: DocumentModel): Html {
  if (!model.tools) return html``
  const { t, section } = model
  const items = [
    { href: '/', text: t('site.sections.tools'), current: section === 'tools' },
    { href: '/docs/', text: t('site.sections.docs'), current: section === 'docs' },
  ]
  return html`<nav class="site-sections" aria-label="${t('site.sections.label')}">${navList(items, 'true')}</nav>`
}

/** A plain GET form: it works without script, and keeps the reader on the same page. */
function languageSwitcher(model: DocumentModel): Html {
  const { t, languages, language } = model
  const options = languages.map(
    (lang) =>
      html`<option value="${lang.code}" lang="${lang.code}"${attr('selected', lang.code === language.code)}>${lang.name}</option>`,
  )
  return html`<form class="language" method="get" action="${model.path}">
    <label for="language-select">${t('site.language.label')}</label>
    <select id="language-select" name="lang" data-language-switcher>
      ${options}
    </select>
    <button type="submit" class="language-go">${t('site.language.go')}</button>
  </form>`
}

function alternates(model: DocumentModel): Html[] {
  return [
    ...model.languages.map(
      (lang) => html`<link rel="alternate" hreflang="${lang.code}" href="${model.path}?lang=${lang.code}" />`,
    ),
    html`<link rel="alternate" hreflang="x-default" href="${model.path}" />`,
  ]
}

export function renderDocument(model: DocumentModel): string {
  const { language, t } = model
  const page = html`<!doctype html>
    <html lang="${language.code}" dir="${language.dir}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${model.title} · imgapi</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${model.stylesheet}" />
        ${alternates(model)}
        <script type="module" src="${model.script}"></script>
        <script type="application/json" id="page-data">${jsonForScript(model.data)}</script>
      </head>
      <body class="section-${model.section}">
        <a class="skip-link" href="#main">${t('site.skipLink')}</a>
        <header class="site-header">
          <a class="brand" href="${model.tools ? '/' : '/docs/'}">imgapi</a>
          ${sections(model)}
          <nav class="site-nav" aria-label="${model.nav.label}">${navList(model.nav.items, 'page')}</nav>
          ${languageSwitcher(model)}
        </header>
        <main id="main" tabindex="-1">${model.body}</main>
        <footer class="site-footer">
          <p>${t('site.footer', { version: VERSION })} · <a href="${REFERENCE_PATH}/json">${t('site.nav.spec')}</a></p>
        </footer>
      </body>
    </html> `
  return page.value
}

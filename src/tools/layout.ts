import type { AppContext } from '../app-context.ts'
import { asset, type AssetName } from '../docs/assets.ts'
import { renderDocument } from '../docs/document.ts'
import { html, type Html } from '../docs/html.ts'
import { languageInfo, LANGUAGES, toolsLocaleOf, translator, type LanguageCode } from '../i18n.ts'
import { optionFacts } from './options.ts'
import { TOOL_GROUPS, TOOL_PAGES, type ToolPage } from './pages.ts'

type Tree = { readonly [key: string]: string | Tree }

/** Every leaf of a locale section as `section.key` → text, the shape the browser's t() reads. */
function flatten(tree: Tree, prefix: string, out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}.${key}`
    if (typeof value === 'string') out[path] = value
    else flatten(value, path, out)
  }
  return out
}

/**
 * The strings a page's script shows, in one language: the shared ones and the page's own. The
 * home can open any tool in place with the files dropped on it, so it carries every tool's.
 */
function clientStrings(page: ToolPage, language: LanguageCode): Record<string, string> {
  const locale = toolsLocaleOf(language) as unknown as Record<string, Tree>
  const sections = page === 'home' ? Object.keys(locale) : ['common', 'pages', page]
  return Object.assign({}, ...sections.filter((s) => locale[s]).map((s) => flatten(locale[s]!, s)))
}

export interface ToolPageContent {
  readonly body: Html
}

export function renderToolPage(
  app: AppContext,
  page: ToolPage,
  language: LanguageCode,
  content: ToolPageContent,
): string {
  const t = translator(language)
  const spec = TOOL_PAGES[page]
  const group = 'group' in spec ? spec.group : undefined
  const items = TOOL_GROUPS.map((name) => ({
    href: TOOL_PAGES[name].path,
    text: t(`tools.nav.${name}`),
    current: name === group,
  }))
  return renderDocument({
    t,
    language: languageInfo(language),
    languages: LANGUAGES.map(languageInfo),
    path: spec.path,
    title: t(`tools.pages.${page}.title`),
    section: 'tools',
    tools: true,
    nav: { label: t('tools.nav.label'), items },
    stylesheet: asset('tools.css').url,
    script: asset(`${spec.entry}.js` as AssetName).url,
    data: {
      page,
      language,
      strings: clientStrings(page, language),
      options: optionFacts(app.config),
      keyRequired: app.access.keys.enabled,
      referencePath: '/docs/reference',
      examplesPath: '/docs/examples',
      paths: Object.fromEntries(Object.entries(TOOL_PAGES).map(([name, s]) => [name, s.path])),
    },
    body: content.body,
  })
}

/** The heading and lead every tool page starts with, the place its script fills, then `after`. */
export function toolFrame(page: ToolPage, language: LanguageCode, after?: Html): Html {
  const t = translator(language)
  return html`<h1>${t(`tools.pages.${page}.title`)}</h1>
<p class="lead">${t(`tools.pages.${page}.lead`)}</p>
<div id="tool" class="tool" data-tool="${page}"><noscript><p class="notice">${t('tools.common.needsScript')}</p></noscript></div>
${after ?? ''}`
}

import type { AppContext } from '../app-context.ts'
import { asset, type AssetName } from '../site/assets.ts'
import { renderDocument } from '../site/document.ts'
import { html, type Html } from '../site/html.ts'
import { languageInfo, LANGUAGES, toolsLocaleOf, translator, type LanguageCode } from '../i18n.ts'
import { componentData, componentStrings, sectionStrings } from './page-data.ts'
import { TOOL_GROUPS, TOOL_PAGES, type ToolPage } from './pages.ts'

/**
 * The strings a page's script shows, in one language: the shared ones and the page's own. The
 * home can open any tool in place with the files dropped on it, so it carries every tool's.
 */
function clientStrings(page: ToolPage, language: LanguageCode): Record<string, string> {
  const sections = page === 'home' ? Object.keys(toolsLocaleOf(language)) : ['pages', page]
  return { ...componentStrings(language), ...sectionStrings(language, sections) }
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
    data: { ...componentData(app, page, language), strings: clientStrings(page, language) },
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

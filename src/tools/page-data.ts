import type { AppContext } from '../app-context.ts'
import { toolsLocaleOf, type LanguageCode } from '../i18n.ts'
import { optionFacts } from './options.ts'
import { TOOL_PAGES } from './pages.ts'

/**
 * What a page built from the UI kit's components (static/kit) carries for its script, as
 * static/kit/page-data.ts reads it: the tools' pages and the docs' tester alike.
 */
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

/** The named sections of the tools' locale, flattened. */
export function sectionStrings(language: LanguageCode, sections: readonly string[]): Record<string, string> {
  const locale = toolsLocaleOf(language) as unknown as Record<string, Tree>
  return Object.assign({}, ...sections.filter((s) => locale[s]).map((s) => flatten(locale[s]!, s)))
}

/** The strings of the shared components, for any page built from them. */
export function componentStrings(language: LanguageCode): Record<string, string> {
  return sectionStrings(language, ['common'])
}

/**
 * This server's options, whether it asks for a key and which addresses it fetches images from
 * (never the allow-list's entries), where the docs are, and the tools' addresses; the page adds
 * its strings.
 */
export function componentData(app: AppContext, page: string, language: LanguageCode) {
  return {
    page,
    language,
    options: optionFacts(app.config),
    keyRequired: app.access.keys.enabled,
    urlSources: app.config.urlSources,
    referencePath: '/docs/reference',
    examplesPath: '/docs/examples',
    paths: Object.fromEntries(Object.entries(TOOL_PAGES).map(([name, s]) => [name, s.path])),
  }
}

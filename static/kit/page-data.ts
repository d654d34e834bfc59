import type { OptionFacts } from '../../src/tools/options.ts'

/** What the server renders into a page built from the kit's components, the tools' and the docs' tester (src/tools/page-data.ts). */
export interface ToolsPageData {
  readonly page: string
  readonly language: string
  readonly strings: Readonly<Record<string, string>>
  readonly options: Readonly<Record<string, OptionFacts>>
  /** This server asks for an API key on POST /api/compress. */
  readonly keyRequired: boolean
  /** Which addresses this server fetches an image from (IMGAPI_URL_SOURCES): off, public or allowlist. */
  readonly urlSources: string
  readonly referencePath: string
  readonly examplesPath: string
  readonly paths: Readonly<Record<string, string>>
}

/**
 * The one reader of what the server rendered into a page for its script (the JSON in
 * #page-data): the docs' pages and the pages built from the kit's components each name their shape.
 */
export function readPageData<T = ToolsPageData>(): T {
  return JSON.parse(document.getElementById('page-data')?.textContent ?? '{}') as T
}

/** The value the server gives an option a request leaves out, from its schema (undefined: none). */
export function optionDefault(data: ToolsPageData, name: string): string | undefined {
  const facts = data.options[name]
  return facts && 'default' in facts && facts.default !== undefined ? String(facts.default) : undefined
}

import type { OptionFacts } from '../../src/tools/options.ts'

/** What the server rendered into a tools page for its script (src/tools/layout.ts). */
export interface ToolsPageData {
  readonly page: string
  readonly language: string
  readonly strings: Readonly<Record<string, string>>
  readonly options: Readonly<Record<string, OptionFacts>>
  /** This server asks for an API key on POST /api/compress. */
  readonly keyRequired: boolean
  readonly referencePath: string
  readonly examplesPath: string
  readonly paths: Readonly<Record<string, string>>
}

export function readPageData(): ToolsPageData {
  return JSON.parse(document.getElementById('page-data')?.textContent ?? '{}') as ToolsPageData
}

import { numberFormats, type NumberFormats } from '../../src/docs/numbers.ts'
import type { Translate } from './i18n.ts'
import { translator } from './i18n.ts'
import type { ToolsPageData } from './page-data.ts'

/** What every component reads: the page's data, its strings and the reader's number formats. */
export interface Env {
  readonly data: ToolsPageData
  readonly t: Translate
  readonly numbers: NumberFormats
}

let current: Env | undefined

export function setEnv(data: ToolsPageData): Env {
  // Right to left, what a sentence quotes is isolated (i18n.ts); left to right it keeps its order.
  const rtl = document.documentElement.dir === 'rtl'
  current = { data, t: translator(data.strings, data.language, rtl), numbers: numberFormats(data.language) }
  return current
}

export function env(): Env {
  if (!current) throw new Error('the tools page has not booted')
  return current
}

import type { TFunction } from 'i18next'
import type { AppContext } from '../app-context.ts'
import { languageInfo, LANGUAGES, translator, type LanguageCode, type LanguageInfo } from '../i18n.ts'
import { numberFormats, type NumberFormats } from './numbers.ts'

/** The areas of the docs site, in navigation order; each is a real URL. */
export const AREAS = ['tester', 'reference', 'examples', 'rate-limits'] as const
export type Area = (typeof AREAS)[number] | 'home'

export function areaPath(area: Area): string {
  return area === 'home' ? '/docs/' : `/docs/${area}`
}

/** Everything a page renders from: the reader's language and this server's facts. */
export interface PageContext {
  readonly app: AppContext
  readonly area: Area
  readonly language: LanguageInfo
  readonly languages: readonly LanguageInfo[]
  readonly t: TFunction
  readonly numbers: NumberFormats
  /**
   * For the reference's tables, whose rows also hold codes, statuses and values a caller types
   * (Latin in every language): the same formats with Latin digits.
   */
  readonly valueNumbers: NumberFormats
}

export function pageContext(app: AppContext, area: Area, language: LanguageCode): PageContext {
  return {
    app,
    area,
    language: languageInfo(language),
    languages: LANGUAGES.map(languageInfo),
    t: translator(language),
    numbers: numberFormats(language),
    valueNumbers: numberFormats(language, 'latin'),
  }
}

import i18next, { type TFunction } from 'i18next'
import english from '../locales/en.json'

/**
 * The one module that loads locales. Server-side text lookup: error titles follow the caller's
 * Accept-Language when a translation exists, falling back to English. `en` is the English
 * resource, whose keys the error catalogue, option schema and header table are checked against.
 */
export const en = english

const RESOURCES = { en: { translation: en } } as const

export const LANGUAGES = Object.keys(RESOURCES)

const instance = i18next.createInstance()
void instance.init({
  resources: RESOURCES,
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
})

/** Best supported language for an Accept-Language header (q-values honoured). */
export function negotiateLanguage(header: string | null): string {
  if (!header) return 'en'
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1 }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const { tag } of ranked) {
    const match =
      LANGUAGES.find((lng) => lng.toLowerCase() === tag) ??
      LANGUAGES.find((lng) => tag.startsWith(`${lng.toLowerCase()}-`))
    if (match) return match
  }
  return 'en'
}

export function translator(language: string): TFunction {
  return instance.getFixedT(language)
}

import {
  DEFAULT_LANGUAGE,
  languageFromTag,
  LANGUAGES,
  preferredLanguage,
  type LanguageCode,
} from '../i18n.ts'
import { requestTarget } from '../http/request-target.ts'

/** The cookie the switcher sets in the browser to remember a reader's choice. */
export const LANGUAGE_COOKIE = 'imgapi_lang'

export interface LanguageChoice {
  readonly language: LanguageCode
  /** What decided it: an explicit ?lang=, a saved choice, the browser's languages, or nothing. */
  readonly source: 'query' | 'cookie' | 'accept-language' | 'default'
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return undefined
}

/** ?lang= first, then the saved choice, then Accept-Language, then English. */
export function chooseLanguage(request: Request): LanguageChoice {
  const asked = requestTarget(request).query.get('lang')
  const fromQuery = asked ? languageFromTag(asked) : undefined
  if (fromQuery) return { language: fromQuery, source: 'query' }
  const saved = cookieValue(request.headers.get('cookie'), LANGUAGE_COOKIE)
  const fromCookie = saved ? LANGUAGES.find((code) => code === saved) : undefined
  if (fromCookie) return { language: fromCookie, source: 'cookie' }
  const fromHeader = preferredLanguage(request.headers.get('accept-language'))
  if (fromHeader) return { language: fromHeader, source: 'accept-language' }
  return { language: DEFAULT_LANGUAGE, source: 'default' }
}

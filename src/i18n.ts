import i18next, { type TFunction } from 'i18next'
import type { ErrorCode } from './errors/catalogue.ts'
import type { OptionName } from './options/schema.ts'
import { qualityValues } from './quality-values.ts'
import english from '../locales/en.json'
import zhHans from '../locales/zh-Hans.json'
import zhHant from '../locales/zh-Hant.json'
import ja from '../locales/ja.json'
import ko from '../locales/ko.json'
import fr from '../locales/fr.json'
import tr from '../locales/tr.json'
import fa from '../locales/fa.json'
import ru from '../locales/ru.json'
import es from '../locales/es.json'
import toolsEnglish from '../locales/tools/en.json'
import toolsZhHans from '../locales/tools/zh-Hans.json'
import toolsZhHant from '../locales/tools/zh-Hant.json'
import toolsJa from '../locales/tools/ja.json'
import toolsKo from '../locales/tools/ko.json'
import toolsFr from '../locales/tools/fr.json'
import toolsTr from '../locales/tools/tr.json'
import toolsFa from '../locales/tools/fa.json'
import toolsRu from '../locales/tools/ru.json'
import toolsEs from '../locales/tools/es.json'

/**
 * The one module that loads locales on the server: every docs and tools page, every problem
 * title and every description in the OpenAPI document reads its text through here. `en` is the
 * English resource, whose keys the error catalogue, option schema, header and settings tables
 * are checked against by `satisfies`. The web tools' strings live apart (locales/tools/), so a
 * tools page ships only its own language's; they are read here as `tools.<key>`. (In the
 * browser, static/kit/i18n.ts is the counterpart, with the same key and placeholder conventions.)
 */
export const en = english
export type Locale = typeof english

/** The languages of the site, in the order the switcher lists them. */
export const ALL_LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'ja', 'ko', 'fr', 'es', 'tr', 'fa', 'ru'] as const
export type LanguageCode = (typeof ALL_LANGUAGES)[number]

/**
 * The translations present. A key missing from one falls back to English at run time, and
 * tests/locales.test.ts fails on it, so the types need not repeat that check.
 */
const LOCALES: Partial<Record<LanguageCode, Locale>> = {
  en: english,
  'zh-Hans': zhHans as Locale,
  'zh-Hant': zhHant as Locale,
  ja: ja as Locale,
  ko: ko as Locale,
  fr: fr as Locale,
  es: es as Locale,
  tr: tr as Locale,
  fa: fa as Locale,
  ru: ru as Locale,
}

export type ToolsLocale = typeof toolsEnglish

const TOOLS_LOCALES: Partial<Record<LanguageCode, ToolsLocale>> = {
  en: toolsEnglish,
  'zh-Hans': toolsZhHans as ToolsLocale,
  'zh-Hant': toolsZhHant as ToolsLocale,
  ja: toolsJa as ToolsLocale,
  ko: toolsKo as ToolsLocale,
  fr: toolsFr as ToolsLocale,
  es: toolsEs as ToolsLocale,
  tr: toolsTr as ToolsLocale,
  fa: toolsFa as ToolsLocale,
  ru: toolsRu as ToolsLocale,
}

/** The web tools' strings in one language (English where a translation is missing). */
export function toolsLocaleOf(code: LanguageCode): ToolsLocale {
  return TOOLS_LOCALES[code] ?? toolsEnglish
}

/** The published languages: every one with a translation, in switcher order. */
export const LANGUAGES: readonly LanguageCode[] = ALL_LANGUAGES.filter((code) => LOCALES[code] !== undefined)
export const DEFAULT_LANGUAGE: LanguageCode = 'en'

export interface LanguageInfo {
  readonly code: LanguageCode
  /** The language's name in itself, as the switcher shows it. */
  readonly name: string
  readonly dir: 'ltr' | 'rtl'
}

export function languageInfo(code: LanguageCode): LanguageInfo {
  const meta = localeOf(code).meta
  return { code, name: meta.name, dir: meta.dir === 'rtl' ? 'rtl' : 'ltr' }
}

export function localeOf(code: LanguageCode): Locale {
  return LOCALES[code] ?? english
}

const instance = i18next.createInstance()
void instance.init({
  resources: Object.fromEntries(
    LANGUAGES.map((code) => [code, { translation: { ...localeOf(code), tools: toolsLocaleOf(code) } }]),
  ),
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
})

export function translator(language: LanguageCode): TFunction {
  return instance.getFixedT(language)
}

// Chinese is published in two scripts; regional tags name the script their readers use.
const SIMPLIFIED = new Set(['zh', 'zh-cn', 'zh-sg', 'zh-my', 'zh-hans'])
const TRADITIONAL = new Set(['zh-tw', 'zh-hk', 'zh-mo', 'zh-hant'])

/** The published language a BCP 47 tag asks for, or undefined when none fits. */
export function languageFromTag(tag: string): LanguageCode | undefined {
  const lower = tag.trim().toLowerCase().replaceAll('_', '-')
  if (lower === '') return undefined
  const exact = LANGUAGES.find((code) => code.toLowerCase() === lower)
  if (exact) return exact
  const parts = lower.split('-')
  if (parts[0] === 'zh') {
    const script = parts.find((p) => p === 'hans' || p === 'hant')
    const key = script ? `zh-${script}` : parts.length > 1 ? `zh-${parts[1]}` : 'zh'
    const wanted: string = TRADITIONAL.has(key) ? 'zh-Hant' : SIMPLIFIED.has(key) ? 'zh-Hans' : 'zh-Hans'
    return LANGUAGES.find((code) => code === wanted)
  }
  return LANGUAGES.find((code) => code.toLowerCase() === parts[0])
}

/** Best published language for an Accept-Language header, q-values honoured; English otherwise. */
export function negotiateLanguage(header: string | null): LanguageCode {
  return preferredLanguage(header) ?? DEFAULT_LANGUAGE
}

/** The best match in an Accept-Language header, or undefined when it names none we publish. */
export function preferredLanguage(header: string | null): LanguageCode | undefined {
  if (!header) return undefined
  const ranked = qualityValues(header)
    .slice(0, 32)
    .map(({ value: tag, q }, index) => ({ tag, q, index }))
    .filter((entry) => entry.q > 0 && entry.tag !== '*')
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of ranked) {
    const match = languageFromTag(tag)
    if (match) return match
  }
  return undefined
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
/**
 * Every error code and option has its text in English, and English has none for a code or option
 * that does not exist: the core carries the keys, this check ties them to the words at compile
 * time (tests/locales.test.ts then checks every other language).
 */
export type TextsMatchKeys = Holds<
  Same<ErrorCode, keyof Locale['errors']> & Same<OptionName, keyof Locale['options']>
>

import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ERROR_CODES } from '../src/errors/catalogue.ts'
import { HEADER_NAMES } from '../src/http/headers.ts'
import { LANGUAGES } from '../src/i18n.ts'
import { OPTION_NAMES } from '../src/options/schema.ts'
import { SETTINGS } from '../src/settings.ts'
import { forbiddenTerms, usesTerm } from './helpers/glossary.ts'
import { ROOT } from './helpers/paths.ts'

const LOCALES = join(ROOT, 'locales')
type Tree = { [key: string]: string | Tree }

/** Every leaf as `a.b.c` → text. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [k, v] of flatten(value, path)) out.set(k, v)
  }
  return out
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()
const read = async (file: string) => (await Bun.file(join(LOCALES, file)).json()) as Tree
const files = readdirSync(LOCALES).filter((f) => f.endsWith('.json'))
const english = flatten(await read('en.json'))
const toolsFiles = readdirSync(join(LOCALES, 'tools')).filter((f) => f.endsWith('.json'))
const toolsEnglish = flatten(await read('tools/en.json'))

const PLURAL = /_(zero|one|two|few|many|other)$/

/**
 * The keys a language's tools file must have: English's, with each plural group (`x_one`,
 * `x_other`) given exactly the plural forms the language has (Japanese only `x_other`, Russian
 * `x_one`, `x_few`, `x_many` and `x_other`).
 */
function expectedToolKeys(language: string): string[] {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
  const keys = new Set<string>()
  for (const key of toolsEnglish.keys()) {
    if (!PLURAL.test(key)) keys.add(key)
    else for (const category of categories) keys.add(key.replace(PLURAL, `_${category}`))
  }
  return [...keys].sort()
}

/** The English text a translated key stands for: a plural form reads English's `_other`. */
const englishFor = (key: string) => toolsEnglish.get(key) ?? toolsEnglish.get(key.replace(PLURAL, '_other'))

describe('locales', () => {
  test('English has the text for every error code, option, response header and setting', () => {
    for (const code of ERROR_CODES)
      for (const part of ['title', 'description', 'action'])
        expect(english.has(`errors.${code}.${part}`), `${code}.${part}`).toBe(true)
    for (const name of OPTION_NAMES) expect(english.has(`options.${name}.description`), name).toBe(true)
    for (const name of HEADER_NAMES) expect(english.has(`headers.${name}.description`), name).toBe(true)
    for (const name of Object.keys(SETTINGS))
      expect(english.has(`settings.${name}.description`), name).toBe(true)
  })

  test('every published language has its file, and every file is published', () => {
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...LANGUAGES].sort())
  })

  for (const file of files.filter((f) => f !== 'en.json')) {
    test(`${file} has exactly the keys English has`, async () => {
      const keys = [...flatten(await read(file)).keys()].sort()
      const missing = [...english.keys()].filter((k) => !keys.includes(k))
      const extra = keys.filter((k) => !english.has(k))
      expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    })

    test(`${file} keeps every {{placeholder}} of the English text, and translates every string`, async () => {
      const locale = flatten(await read(file))
      const broken: string[] = []
      const empty: string[] = []
      for (const [key, text] of english) {
        const translated = locale.get(key)
        if (translated === undefined) continue
        if (translated.trim() === '') empty.push(key)
        if (placeholders(translated).join() !== placeholders(text).join()) broken.push(key)
      }
      expect({ broken, empty }).toEqual({ broken: [], empty: [] })
    })
  }

  test('the glossary matcher finds a term in any case and at the start of a longer word, not inside one nor inside an identifier', () => {
    const [efor, internal] = forbiddenTerms('```do-not-use\nefor → çaba\nİç hata → Sunucu hatası\n```\n')
    expect(usesTerm('Sıkıştırmaya harcanan CPU eforu', efor!, 'tr')).toBe(true)
    expect(usesTerm('Reforma', efor!, 'tr')).toBe(false)
    const [endpoint] = forbiddenTerms('```do-not-use\nendpoint → punto de conexión\n```\n')
    expect(usesTerm('el endpoint de S3', endpoint!, 'es')).toBe(true)
    expect(usesTerm('de AWS_ENDPOINT_URL_S3', endpoint!, 'es')).toBe(false)
    expect(usesTerm('İÇ HATA', internal!, 'tr')).toBe(true)
    const [defect, arabicYeh] = forbiddenTerms('```do-not-use\n缺陷 → 错误\n…ي → ی\n```\n')
    expect(usesTerm('这是服务器的缺陷。', defect!, 'zh-Hans')).toBe(true)
    expect(usesTerm('كدگذاري', arabicYeh!, 'fa')).toBe(true)
    expect(usesTerm('کدگذاری', arabicYeh!, 'fa')).toBe(false)
  })

  for (const file of files.filter((f) => f !== 'en.json')) {
    const language = file.replace(/\.json$/, '')
    test(`${file} uses none of the terms its glossary rules out`, async () => {
      const glossary = await Bun.file(join(LOCALES, 'glossary', `${language}.md`)).text()
      const terms = forbiddenTerms(glossary)
      expect(terms.length, `a do-not-use block in glossary/${language}.md`).toBeGreaterThan(0)
      const found: string[] = []
      for (const [key, text] of flatten(await read(file)))
        for (const term of terms)
          if (usesTerm(text, term, language)) found.push(`${key}: "${term.term}" (use "${term.preferred}")`)
      expect(found).toEqual([])
    })
  }

  test('wherever metadata=keep is offered, every language says the GPS position travels with it', async () => {
    for (const language of LANGUAGES) {
      const api = flatten(await read(`${language}.json`)).get('options.metadata.description')!
      const tools = flatten(await read(`tools/${language}.json`)).get('compress.metadataHint.keep')!
      // The description names GPS for strip and copyright already; keep's own sentence adds it.
      expect([language, api.split('GPS').length - 1 >= 3, tools.includes('GPS')]).toEqual([
        language,
        true,
        true,
      ])
    }
  })

  test('every published language has its tools file, and every tools file is published', () => {
    expect(toolsFiles.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...LANGUAGES].sort())
  })

  for (const file of toolsFiles) {
    const language = file.replace(/\.json$/, '')
    test(`tools/${file} has English's keys, with its language's own plural forms`, async () => {
      const keys = [...flatten(await read(`tools/${file}`)).keys()].sort()
      const expected = expectedToolKeys(language)
      const missing = expected.filter((k) => !keys.includes(k))
      const extra = keys.filter((k) => !expected.includes(k))
      expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    })

    test(`tools/${file} keeps every {{placeholder}} of the English text, and translates every string`, async () => {
      const broken: string[] = []
      const empty: string[] = []
      for (const [key, text] of flatten(await read(`tools/${file}`))) {
        if (text.trim() === '') empty.push(key)
        const source = englishFor(key)
        if (source !== undefined && placeholders(text).join() !== placeholders(source).join())
          broken.push(key)
      }
      expect({ broken, empty }).toEqual({ broken: [], empty: [] })
    })
  }
})

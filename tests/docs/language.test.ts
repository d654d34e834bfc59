import { describe, expect, test } from 'bun:test'
import { languageFromTag, LANGUAGES, negotiateLanguage, translator } from '../../src/i18n.ts'
import { startApi } from '../helpers/api.ts'
import { problemOf } from '../helpers/requests.ts'

describe('language negotiation', () => {
  test('maps Chinese tags to the script their readers use', () => {
    expect(languageFromTag('zh')).toBe('zh-Hans')
    expect(languageFromTag('zh-CN')).toBe('zh-Hans')
    expect(languageFromTag('zh-SG')).toBe('zh-Hans')
    expect(languageFromTag('zh-TW')).toBe('zh-Hant')
    expect(languageFromTag('zh-HK')).toBe('zh-Hant')
    expect(languageFromTag('zh-Hant-HK')).toBe('zh-Hant')
    expect(languageFromTag('zh_TW')).toBe('zh-Hant')
  })

  test('honours q-values and order, skips what is not published, and falls back to English', () => {
    expect(negotiateLanguage('de-DE, fr;q=0.8, ja;q=0.9')).toBe('ja')
    expect(negotiateLanguage('pt-BR, es-MX;q=0.5')).toBe('es')
    expect(negotiateLanguage('fa-IR')).toBe('fa')
    expect(negotiateLanguage('de, *;q=0.1')).toBe('en')
    expect(negotiateLanguage('ru;q=0, tr')).toBe('tr')
    expect(negotiateLanguage(null)).toBe('en')
    expect(negotiateLanguage(';;;,,,q=abc')).toBe('en')
  })
})

describe('problem answers in every published language', () => {
  test("title from the reader's locale and Content-Language naming it, while code and detail stay machine-readable", async () => {
    const api = await startApi()
    const titles = new Set<string>()
    for (const language of LANGUAGES) {
      const response = await api.fetch('/api/compress', {
        method: 'POST',
        body: new Uint8Array(0),
        headers: { 'accept-language': language, 'content-type': 'image/png' },
      })
      const problem = await problemOf(response)
      expect(response.headers.get('content-language')).toBe(language)
      expect(problem.code).toBeDefined()
      expect(problem.title).toBe(translator(language)(`errors.${problem.code}.title`))
      titles.add(problem.title)
    }
    // Ten languages, ten different titles: none fell back to English.
    expect(titles.size).toBe(LANGUAGES.length)
  })
})

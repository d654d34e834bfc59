import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ERROR_CODES, OPERATION_ERRORS } from '../../src/errors/catalogue.ts'
import { PLANNED_OPTIONS } from '../../src/image/plan.ts'
import { PIPELINE } from '../../src/image/steps/index.ts'
import { LANGUAGES, localeOf } from '../../src/i18n.ts'
import { OPTION_NAMES } from '../../src/options/schema.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { sourceFiles } from '../helpers/import-graph.ts'
import { ROOT } from '../helpers/paths.ts'

/*
 * CONTRIBUTING.md's recipes, checked: an option or an error code added without one of its
 * steps fails here, naming what is missing.
 */

const THIS_FILE = join(import.meta.dir, 'registry.test.ts')
const TEST_TEXT = sourceFiles(join(ROOT, 'tests'))
  .filter((file) => file.endsWith('.test.ts') && file !== THIS_FILE)
  .map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }))

const mentionedInTests = (word: string) =>
  TEST_TEXT.some(({ text }) => new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text))

let api: Api
beforeAll(async () => {
  api = await startApi()
}, 60_000)
afterAll(() => api.stop())

describe('every option is declared once and carried through', () => {
  const pages = new Map<string, { reference: string; tester: string }>()
  beforeAll(async () => {
    for (const language of LANGUAGES) {
      const [reference, tester] = await Promise.all(
        ['reference', 'tester'].map(async (area) =>
          (await api.fetch(`/docs/${area}?lang=${language}`)).text(),
        ),
      )
      pages.set(language, { reference: reference!, tester: tester! })
    }
  }, 60_000)

  test('has a pipeline step or a planning rule that carries it out', () => {
    const homes = new Set<string>([...PLANNED_OPTIONS, ...PIPELINE.flatMap((step) => step.options)])
    expect(OPTION_NAMES.filter((name) => !homes.has(name))).toEqual([])
  })

  test('has its description in all ten languages', () => {
    const missing = LANGUAGES.flatMap((language) =>
      OPTION_NAMES.filter((name) => {
        const text = (localeOf(language).options as Record<string, { description?: string }>)[name]
        return !text?.description?.trim()
      }).map((name) => `${language}: ${name}`),
    )
    expect(missing).toEqual([])
  })

  // The tester draws its form in the browser from the page's data: each option's facts and
  // its description in the page's language (tests/browser/tester.test.ts checks the fields).
  test('has a row in the docs reference and a field in the tester, in every language', () => {
    const missing: string[] = []
    for (const [language, { reference, tester }] of pages) {
      const data = JSON.parse(
        /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(tester)![1]!,
      )
      const facts = new Set(Object.keys(data.options))
      for (const name of OPTION_NAMES) {
        if (!reference.includes(`id="option-${name}"`)) missing.push(`${language} reference: ${name}`)
        if (!facts.has(name) || !data.strings[`site.tester.option.${name}`]?.trim())
          missing.push(`${language} tester: ${name}`)
      }
    }
    expect(missing).toEqual([])
  })

  test('is a parameter of the compress operation in the OpenAPI document', async () => {
    const spec = await (await api.fetch('/swagger/json')).json()
    const parameters = new Set(
      spec.paths['/api/compress'].post.parameters.map((p: { name: string }) => p.name),
    )
    expect(OPTION_NAMES.filter((name) => !parameters.has(name))).toEqual([])
  })

  test('appears in at least one test file', () => {
    expect(OPTION_NAMES.filter((name) => !mentionedInTests(name))).toEqual([])
  })
})

/** Answered by any route rather than one operation: a wrong path or method, a missing key. */
const ANY_ROUTE = new Set(['NOT_FOUND', 'METHOD_NOT_ALLOWED', 'UNAUTHORIZED'])

describe('every error code is declared once and carried through', () => {
  test('is listed for the operations that answer it', () => {
    const answered = new Set(Object.values(OPERATION_ERRORS).flat())
    expect(ERROR_CODES.filter((code) => !answered.has(code) && !ANY_ROUTE.has(code))).toEqual([])
  })

  test('has its title, description and action in all ten languages', () => {
    const missing = LANGUAGES.flatMap((language) =>
      ERROR_CODES.filter((code) => {
        const text = (localeOf(language).errors as Record<string, Record<string, string> | undefined>)[code]
        return !text?.title?.trim() || !text.description?.trim() || !text.action?.trim()
      }).map((code) => `${language}: ${code}`),
    )
    expect(missing).toEqual([])
  })

  test('has a row in the docs reference, in every language', async () => {
    const missing: string[] = []
    for (const language of LANGUAGES) {
      const reference = await (await api.fetch(`/docs/reference?lang=${language}`)).text()
      for (const code of ERROR_CODES)
        if (!reference.includes(`id="${code}"`)) missing.push(`${language}: ${code}`)
    }
    expect(missing).toEqual([])
  })

  // INTERNAL is a bug's answer: no request is meant to produce it.
  test('appears in at least one test file', () => {
    expect(ERROR_CODES.filter((code) => code !== 'INTERNAL' && !mentionedInTests(code))).toEqual([])
  })
})

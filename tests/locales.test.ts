import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ERROR_CODES } from '../src/errors/catalogue.ts'
import { OPTION_NAMES } from '../src/options/schema.ts'
import { ROOT } from './helpers/paths.ts'

const LOCALES = join(ROOT, 'locales')

describe('locales', () => {
  const files = readdirSync(LOCALES).filter((f) => f.endsWith('.json'))

  test('English is present', () => {
    expect(files).toContain('en.json')
  })

  for (const file of files) {
    test(`${file} has a title and description for every error code and a description for every option`, async () => {
      const locale = await Bun.file(join(LOCALES, file)).json()
      for (const code of ERROR_CODES) {
        expect(typeof locale.errors?.[code]?.title, `${file}: errors.${code}.title`).toBe('string')
        expect(typeof locale.errors?.[code]?.description, `${file}: errors.${code}.description`).toBe(
          'string',
        )
      }
      for (const name of OPTION_NAMES) {
        expect(typeof locale.options?.[name]?.description, `${file}: options.${name}.description`).toBe(
          'string',
        )
      }
    })
  }
})

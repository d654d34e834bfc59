import { describe, expect, test } from 'bun:test'
import { AREAS, areaPath } from '../../src/docs/page-context.ts'
import { numberFormats } from '../../src/docs/numbers.ts'
import { FORMAT_TABLE, JPEG_TRELLIS, OUTPUT_FORMATS, searchFormat } from '../../src/formats/format-table.ts'
import { clientJobCap } from '../../src/http/client-jobs.ts'
import { LANGUAGES, translator } from '../../src/i18n.ts'
import { MIN_QUALITY } from '../../src/image/search/index.ts'
import { AUTO_QUALITIES } from '../../src/options/schema.ts'
import { startApi } from '../helpers/api.ts'

/** The cells of the table row whose first cell holds `first`, as HTML. */
function cellsOf(page: string, first: string): string[] {
  const row = page
    .split('<tr')
    .find((r) => new RegExp(`<td[^>]*>${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(r))
    ?.split('</tr>')[0]
  expect(row, first).toBeDefined()
  return [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!)
}
const PLACEHOLDER = /\{\{\s*\w+\s*\}\}/
const code = (text: string) => `<code translate="no">${text}</code>`

describe('figures on the docs site', () => {
  test('a setting whose 0 means derived shows the value in force and how it was derived, on the reference and the limits page', async () => {
    const api = await startApi({ workers: 2, queueLength: 10, uploadBudgetBytes: 64 * 1024 * 1024 })
    const cap = clientJobCap(0, 2, 10)
    const reference = await (await api.fetch('/docs/reference?lang=en')).text()
    const jobs = reference.split('id="setting-maxClientJobs"')[1]!.split('</tr>')[0]!
    expect(jobs).toContain(`>${cap}<br><small>derived: half of (workers + queue length)</small></td>`)
    // Set explicitly: the value as given, with no note.
    const uploads = reference.split('id="setting-uploadBudgetBytes"')[1]!.split('</tr>')[0]!
    expect(uploads).toContain('>64 MiB</td>')
    const limits = await (await api.fetch('/docs/rate-limits?lang=en')).text()
    expect(limits).toContain(`>${cap}<br><small>derived: half of (workers + queue length)</small></td>`)
    expect(limits).toContain('<small>derived: half of the memory limit</small>')
    expect(limits).not.toContain('<small>derived: a quarter of the memory limit</small>')
    const explicit = await startApi({ maxClientJobs: 3 })
    const set = await (await explicit.fetch('/docs/reference?lang=en')).text()
    expect(set.split('id="setting-maxClientJobs"')[1]!.split('</tr>')[0]).toContain('>3</td>')
  })

  test("the auto-quality table gives each level's minimum quality per format, from the search's own table", async () => {
    const api = await startApi()
    const page = await (await api.fetch('/docs/reference?lang=en')).text()
    const formats = OUTPUT_FORMATS.filter((format) => 'quality' in FORMAT_TABLE[format].tunables)
    expect(formats).toContain('avif')
    for (const level of AUTO_QUALITIES) {
      const lines = cellsOf(page, code(level))[2]!.split('<br>')
      for (const format of formats) {
        const line = lines.find((l) => l.includes(code(format)))
        expect(line, `${level} ${format}`).toEndWith(`: ${MIN_QUALITY[searchFormat(format)][level]}`)
      }
    }
  })

  test('every language quotes the JPEG trellis figures from code, in Latin digits like the rest of the reference table, and no page shows a raw placeholder', async () => {
    const api = await startApi()
    for (const language of LANGUAGES) {
      const numbers = numberFormats(language, 'latin')
      const reference = await (await api.fetch(`/docs/reference?lang=${language}`)).text()
      const effort = reference.split('id="option-effort"')[1]!.split('</tr>')[0]!
      expect(effort, language).toContain(numbers.percent(JPEG_TRELLIS.bytesSaved))
      expect(effort, language).toContain(numbers.integer(JPEG_TRELLIS.encoderTimes))
      for (const area of ['home', ...AREAS] as const) {
        const page = await (await api.fetch(`${areaPath(area)}?lang=${language}`)).text()
        // The page's script data keeps its placeholders: the browser fills them in.
        const shown = page.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '')
        expect(shown, `${language} ${area}`).not.toMatch(PLACEHOLDER)
      }
    }
    const openapi = JSON.stringify(await (await api.fetch('/swagger/json')).json())
    expect(openapi).toContain(`about ${JPEG_TRELLIS.bytesSaved * 100}% smaller`)
    expect(openapi).not.toMatch(PLACEHOLDER)
  })

  test('the limits page is called by one name in the navigation, its heading and every text that sends readers there', async () => {
    const api = await startApi()
    for (const language of LANGUAGES) {
      const name = translator(language)('site.nav.rateLimits')
      const link = `<a href="/docs/rate-limits">${name}</a>`
      const limits = await (await api.fetch(`/docs/rate-limits?lang=${language}`)).text()
      expect(limits, language).toContain(`<h1>${name}</h1>`)
      expect(limits, language).toContain(`aria-current="page">${name}</a>`)
      const reference = await (await api.fetch(`/docs/reference?lang=${language}`)).text()
      for (const code of ['PAYLOAD_TOO_LARGE', 'IMAGE_TOO_LARGE'])
        expect(reference.split(`id="${code}"`)[1]!.split('</tr>')[0], `${language} ${code}`).toContain(link)
      expect(reference.split('id="settings-title"')[1], language).toContain(link)
    }
  })

  test('durations keep the space between figure and unit that each glossary asks for', () => {
    for (const language of ['zh-Hans', 'zh-Hant', 'ja']) {
      expect(numberFormats(language).seconds(60_000), language).toBe('60 秒')
    }
    expect(numberFormats('zh-Hans').milliseconds(250)).toBe('250 毫秒')
    expect(numberFormats('ko').seconds(60_000)).toBe('60초')
    expect(numberFormats('ko').milliseconds(250)).toBe('250 ms')
  })
})

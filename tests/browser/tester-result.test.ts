import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { OPTION_NAMES } from '../../src/options/schema.ts'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { browserSession } from './session.ts'
import { optionOrder } from '../../static/docs/tester/endpoints.ts'
import { openTester, send, TESTER_FILE } from './tester-page.ts'

announceBrowserSkip("the tester's result in a real browser")

const PHOTO = join(FIXTURES, 'photo-exif-orientation-6.jpg')

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))("the tester's result in a real browser", () => {
  const session = browserSession()

  async function compress(page: Page, file: string, options: Record<string, string>, json = false) {
    await openTester(page, session.api)
    await page.setInputFiles(TESTER_FILE, file)
    for (const [name, value] of Object.entries(options)) {
      const control = page.locator(`#option-${name}`)
      // The less common options wait behind "More options".
      if (!(await control.isVisible())) await page.click('.more-options summary')
      if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value)
      else await control.fill(value)
    }
    if (json) await page.check('input[name="accept"][value="json"]')
    await send(page)
  }

  /** The result's headers table, as name → value. */
  const headers = (page: Page) =>
    page.$$eval('[data-result] table.headers tr', (rows) =>
      Object.fromEntries(
        rows.map((row) => [
          (row as HTMLTableRowElement).cells[0]!.textContent,
          (row as HTMLTableRowElement).cells[1]!.textContent,
        ]),
      ),
    ) as Promise<Record<string, string>>

  const summary = (page: Page) =>
    page.$$eval('.result-summary div', (items) =>
      items.map((item) => [item.querySelector('dt')!.textContent, item.querySelector('dd')!.textContent]),
    )

  test('sums up the quality, the similarity and the encodes tried, as the headers (or the envelope) give them', async () => {
    const page = await session.browser.context.newPage()
    await compress(page, PHOTO, { format: 'webp', quality: 'auto' })
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    const sent = await headers(page)
    const encodes = /encodes;desc="(\d+)"/.exec(sent['server-timing']!)![1]!
    // The search probes a sample first; the count is of encodes of the whole image, one or more.
    expect(Number(encodes)).toBeGreaterThanOrEqual(1)
    const similarity = sent['x-similarity']!.replace('ssim=', 'SSIM ').replace(/0+$/, '')
    expect(await summary(page)).toEqual([
      ['Quality', sent['x-quality']!],
      ['Similarity', similarity],
      ['Encodes tried', encodes],
    ])
    // The summary comes before the pictures, not only in the headers below them.
    expect(await page.$eval('.result-summary', (el) => el.nextElementSibling?.className)).toBe('compare')
    await compress(page, PHOTO, { format: 'webp', quality: 'auto' }, true)
    const envelope = JSON.parse((await page.textContent('[data-result] pre.json'))!)
    expect((await summary(page)).map(([name]) => name)).toEqual(['Quality', 'Similarity', 'Encodes tried'])
    expect((await summary(page))[0]![1]).toBe(String(envelope.quality))
    await page.close()
  }, 60_000)

  test('marks a result larger than the input in words and in its own colour', async () => {
    const page = await session.browser.context.newPage()
    await compress(page, PHOTO, { format: 'png', lossless: 'true' })
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    const larger = page.locator('[data-result] .compare-facts dd.larger')
    expect(await larger.textContent()).toMatch(/^\d+(\.\d)?% larger$/)
    const colours = await larger.evaluate((el) => {
      const bad = getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()
      const probe = document.createElement('span')
      probe.style.color = bad
      document.body.append(probe)
      return { larger: getComputedStyle(el).color, bad: getComputedStyle(probe).color }
    })
    expect(colours.larger).toBe(colours.bad)
    await compress(page, PHOTO, { format: 'webp' })
    expect(await page.locator('[data-result] .compare-facts dd.larger').count()).toBe(0)
    expect(
      await page
        .locator('[data-result] .compare-facts dd.smaller')
        .evaluate((el) => getComputedStyle(el).color),
    ).not.toBe(colours.bad)
    await page.close()
  }, 60_000)

  test("shows an error's detail and each invalid field, not only its title", async () => {
    const page = await session.browser.context.newPage()
    await compress(page, PHOTO, { quality: '0' })
    expect(await page.textContent('.status-line')).toStartWith('400 Bad Request')
    const problem = JSON.parse((await page.textContent('[data-result] pre.json'))!)
    expect(problem.code).toBe('INVALID_PARAMETER')
    expect(await page.textContent('.problem .problem-detail')).toBe(problem.detail)
    expect(await page.locator('.problem .problem-errors li').allTextContents()).toEqual(
      problem.errors.map((error: { name: string; reason: string }) => `${error.name} ${error.reason}`),
    )
    await page.close()
  }, 30_000)

  test('the copy button never covers the curl command, on a wide screen or a phone', async () => {
    const page = await session.browser.context.newPage()
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 })
      await compress(page, PHOTO, { format: 'avif', quality: '40', width: '300' })
      const block = page.locator('[data-result] .code-block')
      const pre = (await block.locator('pre').boundingBox())!
      const button = (await block.locator('button.copy').boundingBox())!
      const overlaps =
        button.x < pre.x + pre.width &&
        pre.x < button.x + button.width &&
        button.y < pre.y + pre.height &&
        pre.y < button.y + button.height
      expect({ width, overlaps }).toEqual({ width, overlaps: false })
      // All of the command is in sight: it wraps rather than scrolls under anything.
      expect(await block.locator('pre').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    }
    await page.close()
  }, 60_000)

  test('has a field for every option of the schema, and each format turns on exactly the options it declares', async () => {
    const page = await session.browser.context.newPage()
    await openTester(page, session.api)
    const fields = await page.$$eval('form[data-tester] [data-option]', (elements) =>
      elements.map((el) => [
        (el as HTMLElement).dataset.option,
        el.querySelector('input, select')?.getAttribute('name'),
      ]),
    )
    // The image's url beside the file, the common options first, then the rest as the schema lists them.
    const { source, first, more } = optionOrder(OPTION_NAMES)
    expect([source, first]).toEqual([['url'], ['format', 'quality', 'width', 'height']])
    expect(fields).toEqual([...source, ...first, ...more].map((name) => [name, name]))
    const { formats } = (await (await session.api.fetch('/api/formats')).json()) as {
      formats: { id: string; output: boolean; tunables: Record<string, unknown> }[]
    }
    const tunable = [...new Set(formats.flatMap((format) => Object.keys(format.tunables)))]
    expect(tunable).toContain('smartSubsample')
    for (const format of formats.filter((f) => f.output)) {
      await page.selectOption('#option-format', format.id)
      for (const name of tunable)
        expect({ format: format.id, name, enabled: await page.isEnabled(`#option-${name}`) }).toEqual({
          format: format.id,
          name,
          enabled: name in format.tunables,
        })
    }
    await page.close()
  }, 60_000)
})

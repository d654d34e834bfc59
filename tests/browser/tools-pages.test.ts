import { describe, expect, test } from 'bun:test'
import { languageInfo, LANGUAGES } from '../../src/i18n.ts'
import { TOOL_PAGES } from '../../src/tools/pages.ts'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { serverAndBrowser, TOOL_PAGE_NAMES } from './tools.ts'
import { headerRows } from './header-rows.ts'
import { leftInEnglish, visibleText } from './visible-text.ts'

announceBrowserSkip('the web tools in ten languages')

// Against the executable, a smoke subset: English and Persian (right to left).
const LANGUAGES_UNDER_TEST = BINARY ? LANGUAGES.filter((code) => code === 'en' || code === 'fa') : LANGUAGES

describe.skipIf(!HAS_CHROMIUM)('the web tools in ten languages', () => {
  const suite = serverAndBrowser()
  const english = new Map<string, string[]>()

  for (const language of LANGUAGES_UNDER_TEST) {
    test(`in ${language}: every tool page loads with no console error, no request to another origin, and no English left`, async () => {
      const info = languageInfo(language)
      const page = await suite.browser.context.newPage()
      const watch = watchPage(page, suite.api.url)
      for (const name of TOOL_PAGE_NAMES) {
        const response = await page.goto(`${suite.api.url}${TOOL_PAGES[name].path}?lang=${language}`)
        expect(response?.status(), name).toBe(200)
        await page.waitForLoadState('networkidle')
        // The script has drawn the tool (or, on Generate's own page, there is nothing to draw).
        if (name !== 'generate') await page.waitForSelector('.drop')
        expect(await page.getAttribute('html', 'lang')).toBe(language)
        expect(await page.getAttribute('html', 'dir')).toBe(info.dir)
        const texts = await visibleText(page)
        if (language === 'en') english.set(name, texts)
        else
          expect(leftInEnglish(english.get(name) ?? [], texts, language), `${language} ${name}`).toEqual([])
      }
      expect({ errors: watch.consoleErrors, external: watch.external }).toEqual({ errors: [], external: [] })
      await page.close()
    }, 90_000)
  }

  test('Persian reads right to left: the header, the drop zone and the settings mirror', async () => {
    const page = await suite.browser.context.newPage()
    await page.goto(`${suite.api.url}/tools/compress?lang=fa`)
    await page.waitForSelector('.drop')
    const header = await page.locator('.site-header').boundingBox()
    const brand = await page.locator('.brand').boundingBox()
    expect(brand!.x).toBeGreaterThan(header!.width / 2)
    const drop = await page.locator('.drop').boundingBox()
    const settings = await page.locator('.tool-settings').boundingBox()
    // Side by side on a wide screen: the settings on the reader's end, the left in Persian.
    expect(settings!.x + settings!.width).toBeLessThanOrEqual(drop!.x)
    expect(await page.locator('.drop').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
    await page.close()
  }, 30_000)

  test('on a 360 px wide phone the header takes at most two rows in every language, the navigation on one line with the current page in view', async () => {
    const page = await suite.browser.context.newPage()
    await page.setViewportSize({ width: 360, height: 740 })
    const laidOut: ({ language: string; path: string } & Awaited<ReturnType<typeof headerRows>>)[] = []
    for (const language of LANGUAGES_UNDER_TEST)
      for (const path of [
        '/',
        TOOL_PAGES.generate.path,
        TOOL_PAGES.social.path,
        '/docs/',
        '/docs/examples',
      ]) {
        await page.goto(`${suite.api.url}${path}?lang=${language}`)
        laidOut.push({ language, path, ...(await headerRows(page)) })
      }
    const wrong = laidOut.filter(
      (header) => header.rows > 2 || header.navLines !== 1 || !header.currentInView || header.pageOverflow,
    )
    expect(wrong).toEqual([])
    await page.close()
  }, 90_000)
})

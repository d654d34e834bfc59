import { describe, expect, test } from 'bun:test'
import { AREAS, areaPath } from '../../src/docs/page-context.ts'
import { languageInfo, LANGUAGES } from '../../src/i18n.ts'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { browserSession } from './session.ts'
import { leftInEnglish, visibleText } from './visible-text.ts'

announceBrowserSkip('docs site in a real browser')

// Against the executable, a smoke subset: English and Persian (right to left), every area.
const LANGUAGES_UNDER_TEST = BINARY ? LANGUAGES.filter((code) => code === 'en' || code === 'fa') : LANGUAGES
const PAGES = ['home', ...AREAS] as const

describe.skipIf(!HAS_CHROMIUM)('docs site in a real browser', () => {
  const session = browserSession()
  const english = new Map<string, string[]>()

  test('publishes all ten languages', () => {
    expect([...LANGUAGES]).toEqual(['en', 'zh-Hans', 'zh-Hant', 'ja', 'ko', 'fr', 'es', 'tr', 'fa', 'ru'])
  })

  for (const language of LANGUAGES_UNDER_TEST) {
    test(`in ${language}: every area loads with no console error, no request to another origin, and no English left`, async () => {
      const info = languageInfo(language)
      for (const area of PAGES) {
        const page = await session.browser.context.newPage()
        const watch = watchPage(page, session.api.url)
        const response = await page.goto(`${session.api.url}${areaPath(area)}?lang=${language}`)
        expect(response?.status(), area).toBe(200)
        await page.waitForLoadState('networkidle')
        expect(await page.getAttribute('html', 'lang')).toBe(language)
        expect(await page.getAttribute('html', 'dir')).toBe(info.dir)
        if (area === 'tester') {
          // What the tester shows on demand counts too: every option and its explanation.
          await page.waitForSelector('form[data-tester][data-ready="true"]')
          await page.click('.more-options summary')
          for (const toggle of await page.locator('.about-toggle').all()) await toggle.click()
        }
        const texts = await visibleText(page)
        if (language === 'en') english.set(area, texts)
        else
          expect(leftInEnglish(english.get(area) ?? [], texts, language), `${language} ${area}`).toEqual([])
        expect({ area, errors: watch.consoleErrors, external: watch.external }).toEqual({
          area,
          errors: [],
          external: [],
        })
        await page.close()
      }
    }, 60_000)
  }

  test('Persian reads right to left: the navigation starts on the right; code, its copy button and identifiers stay left to right', async () => {
    const page = await session.browser.context.newPage()
    await page.goto(`${session.api.url}/docs/examples?lang=fa`)
    const header = await page.locator('.site-header').boundingBox()
    const brand = await page.locator('.brand').boundingBox()
    const nav = await page.locator('.site-nav ul').boundingBox()
    expect(brand!.x).toBeGreaterThan(header!.width / 2)
    expect(nav!.x + nav!.width).toBeLessThan(brand!.x)
    const block = page.locator('.code-block').first()
    expect(await block.locator('pre').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
    // The copy button sits on the right, over the room the code leaves it, not over the code.
    const pre = await block.locator('pre').boundingBox()
    const button = await block.locator('button.copy').boundingBox()
    expect(button!.x + button!.width).toBeGreaterThan(pre!.x + pre!.width - 100)
    await page.goto(`${session.api.url}/docs/reference?lang=fa`)
    const inline = page.locator('p code, td code').first()
    expect(await inline.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
    expect(await inline.evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe('isolate')
    await page.close()
  })

  test("the home page's one-command curl targets the address the page was loaded from, and copies it so", async () => {
    const page = await session.browser.context.newPage()
    await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto(`${session.api.url}/docs/`)
    const command = await page.textContent('.code-block code')
    expect(command).toStartWith('curl ')
    expect(command).toEndWith(` ${session.api.url}/api/compress`)
    await page.click('.code-block button.copy')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command!)
    await page.close()
  }, 30_000)

  test('the switcher keeps the reader on the same area, and the choice is remembered', async () => {
    const target = 'fa'
    const page = await session.browser.context.newPage()
    await page.goto(`${session.api.url}/docs/tester`)
    await Promise.all([
      page.waitForURL(`**/docs/tester?lang=${target}`),
      page.selectOption('#language-select', target),
    ])
    expect(await page.getAttribute('html', 'lang')).toBe(target)
    await page.goto(`${session.api.url}/docs/reference`)
    expect(await page.getAttribute('html', 'lang')).toBe(target)
    await page.goto(`${session.api.url}/docs/reference?lang=en`)
    expect(await page.getAttribute('html', 'lang')).toBe('en')
    await page.close()
  }, 30_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { AREAS, areaPath } from '../../src/docs/page-context.ts'
import { LANGUAGES } from '../../src/i18n.ts'
import { BINARY, startApi, type Api } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, launchBrowser, type Browser } from './chromium.ts'
import {
  axeViolations,
  FIRST_VIEW_BUDGET_BYTES,
  firstViewBytes,
  SCREENSHOT_LANGUAGES,
  SCREENSHOTS,
} from './quality.ts'
import { comparedPictures, TESTER_FILE } from './tester-page.ts'

announceBrowserSkip('docs site quality: accessibility, size budget, screenshots')

const PAGES = ['home', ...AREAS] as const
describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('docs site quality', () => {
  let api: Api
  let browser: Browser
  let audit: Browser
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    browser = await launchBrowser()
    // axe is injected as a script, which the pages' Content-Security-Policy rightly refuses.
    audit = await launchBrowser({ bypassCsp: true })
    mkdirSync(SCREENSHOTS, { recursive: true })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await audit?.close()
    await api?.stop()
  })

  for (const language of LANGUAGES.filter((code) => code === 'en' || code === 'fa')) {
    test(`axe finds no serious or critical accessibility violation and no duplicate id on any area in ${language}, at 1280 and 360 px (where code blocks scroll and must take focus)`, async () => {
      for (const width of [1280, 360]) {
        for (const area of PAGES) {
          const page = await audit.context.newPage()
          await page.setViewportSize({ width, height: 900 })
          await page.goto(`${api.url}${areaPath(area)}?lang=${language}`)
          await page.waitForLoadState('networkidle')
          expect({ width, area, violations: await axeViolations(page) }).toEqual({
            width,
            area,
            violations: [],
          })
          await page.close()
        }
      }
    }, 120_000)
  }

  test('the first view of every area transfers at most 100 KB, compressed', async () => {
    for (const area of PAGES) {
      const bytes = await firstViewBytes(browser.context, `${api.url}${areaPath(area)}?lang=en`)
      expect({ area, bytes }).toEqual({ area, bytes: expect.any(Number) })
      expect(bytes, area).toBeLessThanOrEqual(FIRST_VIEW_BUDGET_BYTES)
      expect(bytes, area).toBeGreaterThan(1000)
    }
  }, 60_000)

  for (const language of LANGUAGES.filter((code) => code === 'en' || code === 'fa')) {
    test(`on a 360 px phone, no area in ${language} scrolls sideways: wide tables and code scroll inside their own box`, async () => {
      const phone = await launchBrowser({ width: 360, height: 740 })
      try {
        const page = await phone.context.newPage()
        for (const area of PAGES) {
          await page.goto(`${api.url}${areaPath(area)}?lang=${language}`)
          await page.waitForLoadState('networkidle')
          const widths = await page.evaluate(() => ({
            page: document.documentElement.scrollWidth,
            viewport: window.innerWidth,
          }))
          expect({ area, overflow: widths.page - widths.viewport }).toEqual({ area, overflow: 0 })
        }
      } finally {
        await phone.close()
      }
    }, 60_000)
  }

  test('/swagger renders the OpenAPI reference under its own strict policy: no console error, nothing from another origin', async () => {
    const page = await browser.context.newPage()
    const errors: string[] = []
    const external: string[] = []
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
    page.on('pageerror', (error) => void errors.push(error.message))
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(api.url) && !url.startsWith('data:') && !url.startsWith('blob:')) external.push(url)
    })
    const response = await page.goto(`${api.url}/swagger`)
    expect(response!.headers()['content-security-policy']).toContain("default-src 'none'")
    // Scalar draws every operation of the document; its operation ids become anchors.
    await page.getByText('/api/compress').first().waitFor({ timeout: 30_000 })
    await page.getByText('/api/health').first().waitFor({ timeout: 30_000 })
    await Bun.sleep(500) // late requests (icons, workers) and their errors
    expect(await page.getByText('/api/health').count()).toBeGreaterThan(0)
    expect({ errors, external }).toEqual({ errors: [], external: [] })
    await page.close()
  }, 60_000)

  for (const language of SCREENSHOT_LANGUAGES) {
    test(`screenshots every area in ${language}`, async () => {
      const page = await browser.context.newPage()
      for (const area of PAGES) {
        await page.goto(`${api.url}${areaPath(area)}?lang=${language}`)
        await page.waitForLoadState('networkidle')
        if (area === 'tester') {
          await page.waitForSelector('form[data-tester][data-ready="true"]')
          await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'webp-lossy-alpha.webp'))
          await page.selectOption('#option-format', 'avif')
          await page.click('[data-send]')
          await comparedPictures(page)
        }
        await page.screenshot({ path: join(SCREENSHOTS, `${area}-${language}.png`), fullPage: true })
      }
      await page.close()
    }, 60_000)
  }
})

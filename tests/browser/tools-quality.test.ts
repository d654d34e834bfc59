import { beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { TOOL_PAGES, type ToolPage } from '../../src/tools/pages.ts'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, launchBrowser } from './chromium.ts'
import {
  axeViolations,
  FIRST_VIEW_BUDGET_BYTES,
  firstViewBytes,
  SCREENSHOT_LANGUAGES,
  SCREENSHOTS,
} from './quality.ts'
import { openTool, serverAndBrowser, settledJobs, TOOL_PAGE_NAMES } from './tools.ts'

announceBrowserSkip('the web tools: accessibility, size budget, screenshots')

const PHOTO = join(FIXTURES, 'photo-exif-orientation-6.jpg')
const ALPHA = join(FIXTURES, 'webp-lossy-alpha.webp')

/** Puts each tool to work on small fixtures, so its results are on the page: what people see. */
const AT_WORK: Partial<Record<ToolPage, (page: Page) => Promise<void>>> = {
  compress: async (page) => {
    await page.setInputFiles('input[data-files]', [PHOTO, ALPHA])
    await settledJobs(page, 2)
    await page.locator('.job-actions button').first().click()
    await page.waitForSelector('.compare img')
  },
  resize: async (page) => {
    await page.locator('button.target').first().click()
    await page.setInputFiles('input[data-files]', PHOTO)
    await settledJobs(page, 1)
  },
  edit: async (page) => {
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.locator('input[name="watermark"][value="text"]').check()
    await page.fill('#watermark-text', 'imgapi')
    await page.waitForSelector('.edit-preview img')
    await page.click('[data-generate]')
    await settledJobs(page, 1)
  },
  convert: async (page) => {
    await page.check('input[name="convert-format"][value="jpeg"]')
    await page.setInputFiles('input[data-files]', [ALPHA, join(FIXTURES, 'gif-animated-10frames.gif')])
    await settledJobs(page, 2)
  },
  favicon: async (page) => {
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.click('[data-generate]')
    await settledJobs(page, 6)
  },
  responsive: async (page) => {
    await page.locator('.chip input').first().check()
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.click('[data-generate]')
    await page.waitForSelector('.tool-results .code-block', { timeout: 60_000 })
  },
  placeholders: async (page) => {
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.waitForSelector('.placeholder canvas', { timeout: 60_000 })
  },
  social: async (page) => {
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.fill('#card-title', await page.evaluate(() => document.title.split(' · ')[0]!))
    await page.click('[data-generate]')
    await settledJobs(page, 1)
  },
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))(
  'the web tools: accessibility, size budget, screenshots',
  () => {
    // axe is injected as a script, which the pages' Content-Security-Policy rightly refuses.
    const suite = serverAndBrowser({}, { bypassCsp: true })
    beforeAll(() => mkdirSync(SCREENSHOTS, { recursive: true }))

    for (const language of ['en', 'fa']) {
      test(`axe finds no serious or critical violation on any tool page in ${language}, at rest and at work`, async () => {
        const page = await suite.browser.context.newPage()
        for (const name of TOOL_PAGE_NAMES) {
          await openTool(page, suite.api.url, name, language)
          await page.waitForLoadState('networkidle')
          expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] })
          const work = AT_WORK[name]
          if (!work) continue
          await work(page)
          expect({ name, atWork: await axeViolations(page) }).toEqual({ name, atWork: [] })
        }
        await page.close()
      }, 240_000)
    }

    test('the first view of every tool page transfers at most 100 KB, compressed', async () => {
      const browser = await launchBrowser()
      try {
        for (const name of TOOL_PAGE_NAMES) {
          const bytes = await firstViewBytes(
            browser.context,
            `${suite.api.url}${TOOL_PAGES[name].path}?lang=en`,
          )
          expect({ name, within: bytes <= FIRST_VIEW_BUDGET_BYTES }).toEqual({ name, within: true })
          expect(bytes, name).toBeGreaterThan(5000)
        }
      } finally {
        await browser.close()
      }
    }, 60_000)

    for (const width of [1280, 360]) {
      for (const language of SCREENSHOT_LANGUAGES) {
        test(`at ${width} px in ${language}: every tool at work, nothing scrolls sideways, and a screenshot of each`, async () => {
          const browser = await launchBrowser({ width, height: width === 360 ? 740 : 900 })
          try {
            const page = await browser.context.newPage()
            for (const name of TOOL_PAGE_NAMES) {
              await openTool(page, suite.api.url, name, language)
              await page.waitForLoadState('networkidle')
              await AT_WORK[name]?.(page)
              const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - window.innerWidth,
              )
              expect({ name, overflow }).toEqual({ name, overflow: 0 })
              await page.screenshot({
                path: join(SCREENSHOTS, `tools-${name}-${language}-${width}.png`),
                fullPage: true,
              })
            }
          } finally {
            await browser.close()
          }
        }, 240_000)
      }
    }
  },
)

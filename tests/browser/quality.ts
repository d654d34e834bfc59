import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { LANGUAGES } from '../../src/i18n.ts'
import { ROOT } from '../helpers/paths.ts'

/** What the docs' and the tools' quality suites share: the budget, axe, the screenshots. */
export { axeViolations } from './axe.ts'

/** The first view's budget: HTML, script, styles and the language's strings, as transferred. */
export const FIRST_VIEW_BUDGET_BYTES = 100 * 1024
/** Where the screenshots go (the README names this folder). */
export const SCREENSHOTS = join(ROOT, 'dist/screenshots')
export const SCREENSHOT_LANGUAGES = LANGUAGES.filter((code) => ['en', 'ja', 'fa'].includes(code))

/** Bytes a fresh page transfers until the network is idle: bodies and headers, as sent. */
export async function firstViewBytes(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage()
  let bytes = 0
  page.on('requestfinished', async (request) => {
    const sizes = await request.sizes()
    bytes += sizes.responseBodySize + sizes.responseHeadersSize
  })
  await page.goto(url)
  await page.waitForLoadState('networkidle')
  await page.close()
  return bytes
}

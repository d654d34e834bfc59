import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { browserSession } from './session.ts'

announceBrowserSkip('/swagger in a real browser')

/** Waits until Scalar has drawn the document's operations. */
async function openReference(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByText('/api/compress').first().waitFor({ timeout: 30_000 })
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('/swagger in a real browser', () => {
  const session = browserSession()

  test('logs nothing to the console while Scalar renders: no deprecation warning, no error', async () => {
    const page = await session.browser.context.newPage()
    const messages: string[] = []
    page.on('console', (message) => {
      if (['warning', 'error'].includes(message.type())) messages.push(`${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`))
    await openReference(page, `${session.api.url}/swagger`)
    await Bun.sleep(500) // late requests (icons, workers) and what they log
    expect(messages).toEqual([])
    await page.close()
  }, 60_000)

  test('leads back to the documentation, in the language it was opened in, under its own policy', async () => {
    const page = await session.browser.context.newPage()
    await openReference(page, `${session.api.url}/swagger?lang=fa`)
    const back = page.locator('a.docs-bar-back')
    expect(await back.isVisible()).toBe(true)
    expect(await back.textContent()).toBe('بازگشت به مستندات')
    // It stays in view above Scalar's own sidebar and content, which start below it.
    const bar = (await page.locator('.docs-bar').boundingBox())!
    const content = (await page.getByText('Download OpenAPI Document').first().boundingBox())!
    expect(content.y).toBeGreaterThanOrEqual(bar.y + bar.height)
    await Promise.all([page.waitForURL('**/docs/?lang=fa'), back.click()])
    expect(await page.getAttribute('html', 'lang')).toBe('fa')
    await openReference(page, `${session.api.url}/swagger`)
    expect(await page.getAttribute('a.docs-bar-back', 'href')).toBe('/docs/')
    await page.close()
  }, 60_000)
})

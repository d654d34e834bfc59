import { describe, expect, test } from 'bun:test'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { browserSession } from './session.ts'

announceBrowserSkip('the reference page in a real browser')

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the reference page in a real browser', () => {
  const session = browserSession()

  test('has contents whose every link leads to exactly one element on the page', async () => {
    const page = await session.browser.context.newPage()
    await page.goto(`${session.api.url}/docs/reference`)
    const targets = await page.$$eval('nav.page-contents a', (links) =>
      links.map((link) => {
        const id = decodeURIComponent(new URL((link as HTMLAnchorElement).href).hash.slice(1))
        return { id, matches: document.querySelectorAll(`#${CSS.escape(id)}`).length }
      }),
    )
    expect(targets.map((target) => target.id)).toEqual([
      'endpoints',
      'endpoint-health',
      'endpoint-formats',
      'endpoint-compress',
      'compress-parameters',
      'similarity',
      'errors',
      'formats',
      'settings',
    ])
    expect(targets.filter((target) => target.matches !== 1)).toEqual([])
    await page.close()
  }, 30_000)

  test('on a wide screen the contents stay in view while the reader follows them down the page', async () => {
    const page = await session.browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${session.api.url}/docs/reference`)
    const link = page.locator('nav.page-contents a[href="#settings"]')
    await link.click()
    await page.waitForFunction(() => location.hash === '#settings')
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(2000)
    // The section heading is at the top, and the contents are still on screen beside it.
    const section = await page.locator('#settings').boundingBox()
    expect(Math.abs(section!.y)).toBeLessThan(40)
    const contents = await page.locator('nav.page-contents').boundingBox()
    expect(contents!.y).toBeGreaterThanOrEqual(0)
    expect(contents!.y + contents!.height).toBeLessThanOrEqual(800)
    expect(await link.isVisible()).toBe(true)
    await page.close()
  }, 30_000)
})

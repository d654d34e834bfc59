import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { BINARY, startApi } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the tools’ error cards in a real browser')

const PHOTO = join(FIXTURES, 'photo-exif-orientation-6.jpg')
/** Words of the API that a card must not show: option names, its field names. */
const API_WORDS = /allowResize|minQuality|maxBytes|multipart|field "file"|expected |received /

interface Card {
  readonly title: string
  readonly detail: string
  /** The title and the detail are elements of their own, the detail below the title. */
  readonly apart: boolean
  readonly retry: boolean
}

/** What each failed file's card says, and whether it offers to try again. */
function cards(page: Page): Promise<Card[]> {
  return page.locator('.job.status-failed').evaluateAll((rows) =>
    rows.map((row) => {
      const title = row.querySelector('.problem-title')
      const detail = row.querySelector('.problem-detail')
      const apart =
        Boolean(title && detail) &&
        detail!.getBoundingClientRect().top >= title!.getBoundingClientRect().bottom - 1
      const retry = [...row.querySelectorAll('.job-actions button')].some(
        (b) => b.textContent === 'Try again',
      )
      return { title: title?.textContent ?? '', detail: detail?.textContent ?? '', apart, retry }
    }),
  )
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the tools’ error cards in a real browser', () => {
  const suite = serverAndBrowser()

  /** The photo under a target of 1 KiB, which no quality reaches. */
  async function unreachable(language: string): Promise<Page> {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress', language)
    await page.waitForSelector('#target')
    await page.fill('#target', '1')
    await page.setInputFiles('input[data-files]', PHOTO)
    expect(await settledJobs(page, 1)).toEqual(['failed'])
    return page
  }

  test('a target size that cannot be met is told in the page’s own words, title apart from detail, and not offered again', async () => {
    const page = await unreachable('en')
    const [card] = await cards(page)
    expect(card).toMatchObject({ title: 'Target size unreachable', apart: true, retry: false })
    expect(card!.detail).toContain('“Scale down when the quality alone cannot reach it”')
    expect(card!.detail).toMatch(/smallest this file got .* was [\d.]+ KiB/)
    expect(card!.detail).not.toMatch(API_WORDS)
    await page.close()
  }, 60_000)

  test('in Persian the detail names the Persian control', async () => {
    const page = await unreachable('fa')
    const label = await page.textContent('label[for="allow-resize"]')
    // Quoted, and an isolate of its own inside the right-to-left sentence.
    expect(await page.textContent('.problem-detail')).toContain(`«\u2068${label}\u2069»`)
    await page.close()
  }, 60_000)

  test('files that cannot succeed are not offered again, and a batch that all failed says how many instead of 0 B → 0 B', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    const bad = [
      'bad-bomb-65536x65536.png',
      'bad-corrupt-header.jpg',
      'bad-text-file.png',
      'bad-zero-bytes.jpg',
    ]
    await page.setInputFiles(
      'input[data-files]',
      bad.map((name) => join(FIXTURES, name)),
    )
    expect(await settledJobs(page, bad.length)).toEqual(bad.map(() => 'failed'))
    const seen = await cards(page)
    expect(seen.map((card) => [card.apart, card.retry])).toEqual(bad.map(() => [true, false]))
    for (const card of seen) expect(card.detail).not.toMatch(API_WORDS)
    const totals = (await page.textContent('.totals'))!
    expect(totals).not.toContain('0 B')
    expect(totals).toContain('4 failed')
    await page.close()
  }, 60_000)

  test('a failure that may pass on a second try (a 503 with no Retry-After) is offered again', async () => {
    const page = await suite.browser.context.newPage()
    await page.route('**/api/compress**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ code: 'OVERLOADED', title: 'Server overloaded', status: 503, detail: 'x' }),
      }),
    )
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    await page.setInputFiles('input[data-files]', PHOTO)
    expect(await settledJobs(page, 1)).toEqual(['failed'])
    const [card] = await cards(page)
    expect(card).toMatchObject({ apart: true, retry: true })
    expect(card!.detail).toBe('The server is too busy to take this file now. Try again in a moment.')
    await page.close()
  }, 60_000)

  test('an option the server refuses is named by its control', async () => {
    // Resize by percent works the width out in the browser: 400% of 600 px is over this limit.
    const small = await startApi({ maxOutputDimension: 1000 }, { socket: true })
    try {
      const page = await suite.browser.context.newPage()
      await openTool(page, small.url, 'resize')
      await page.locator('input[name="mode"][value="percent"]').check()
      await page.fill('#percent', '400')
      await page.setInputFiles('input[data-files]', PHOTO)
      expect(await settledJobs(page, 1)).toEqual(['failed'])
      const [card] = await cards(page)
      expect(card).toMatchObject({ apart: true, retry: false })
      expect(card!.detail).toContain('“Width”')
      expect(card!.detail).not.toMatch(API_WORDS)
      await page.close()
    } finally {
      await small.stop()
    }
  }, 60_000)
})

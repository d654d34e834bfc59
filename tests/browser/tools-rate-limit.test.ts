import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the tools against a rate-limited server')

const FILES = [
  'photo-exif-orientation-6.jpg',
  'webp-lossy-alpha.webp',
  'png-tiny-1x1-prophoto-icc.png',
  'gif-animated-10frames.gif',
]

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the tools against a rate-limited server', () => {
  // One request a second per client: a batch of four is refused with 429 and Retry-After.
  const suite = serverAndBrowser({ rateLimit: 1, rateWindowMs: 1000, rateBurst: 1, workers: 2 })

  test('a batch shows the 429, waits out Retry-After, and carries on until every file is done', async () => {
    const page = await suite.browser.context.newPage()
    const statuses: number[] = []
    page.on('response', (response) => {
      if (response.url().includes('/api/compress')) statuses.push(response.status())
    })
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    // Everything the live region says, as a screen reader would hear it.
    await page.evaluate(() => {
      const region = document.querySelector('[role="status"][aria-live="polite"]')!
      const heard: string[] = ((window as unknown as { heard: string[] }).heard = [])
      new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, {
        childList: true,
        characterData: true,
        subtree: true,
      })
    })
    const waiting = page.waitForSelector('.job.status-waiting', { timeout: 30_000 })
    await page.setInputFiles(
      'input[data-files]',
      FILES.map((name) => join(FIXTURES, name)),
    )
    // While a file waits, its row says why (this client's own limit, not a busy server) and
    // when it will be sent again.
    const row = await waiting
    expect(await row.textContent()).toMatch(
      /Your request limit on this server is used up: sending again in \d+ s/,
    )
    expect(await settledJobs(page, FILES.length, 60_000)).toEqual(FILES.map(() => 'done'))
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard)
    expect(heard.some((text) => text.includes('Your request limit on this server is used up;'))).toBe(true)
    expect(heard.some((text) => text.includes('busy'))).toBe(false)
    expect(heard.at(-1)).toContain('Every file is finished.')
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status === 200).length).toBe(FILES.length)
    // Retried only after being told to wait: never more refusals than files times attempts.
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
    await page.close()
  }, 90_000)
})

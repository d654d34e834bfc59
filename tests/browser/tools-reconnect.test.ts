import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Route } from 'playwright-core'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { jobsBecome, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the tools when the server goes away and comes back')

const FILES = [
  'photo-exif-orientation-6.jpg',
  'webp-lossy-alpha.webp',
  'tiff-rgb-uncompressed.tiff',
  'png-apng-animated-ball.png',
  'gif-animated-10frames.gif',
]

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))(
  'the tools when the server goes away and comes back',
  () => {
    // One file at a time, so the batch is still sending when the server goes away.
    const suite = serverAndBrowser({ workers: 1 })

    test('a server that stops answering mid-batch: the files left wait for it, say so, and are all done once it is back', async () => {
      const page = await suite.browser.context.newPage()
      let [down, wentDown] = [false, false]
      const healthChecks: number[] = []
      // The server "restarts" just after its first answer: while it is down, every request fails
      // as a refused connection does.
      page.on('response', (response) => {
        if (!wentDown && response.url().includes('/api/compress')) down = wentDown = true
      })
      const serve = (route: Route) => (down ? route.abort('connectionrefused') : route.continue())
      await page.route('**/api/compress**', serve)
      await page.route('**/api/health', (route) => {
        healthChecks.push(Date.now())
        return serve(route)
      })
      await openTool(page, suite.api.url, 'compress')
      await page.waitForSelector('#quality')
      await page.setInputFiles(
        'input[data-files]',
        FILES.map((name) => join(FIXTURES, name)),
      )
      const waiting = await page.waitForSelector('.job.status-offline', { timeout: 30_000 })
      expect(await waiting.textContent()).toContain('Waiting for the server')
      expect(await page.textContent('.summary')).toContain('The server cannot be reached')
      // Nothing fails while it is away, however long: the page only asks /api/health, less and less often.
      await page.waitForTimeout(4000)
      expect(await page.locator('.job.status-failed').count()).toBe(0)
      expect(healthChecks.length).toBeGreaterThan(1)
      expect(healthChecks.length).toBeLessThan(8)
      down = false
      expect(await settledJobs(page, FILES.length, 60_000)).toEqual(FILES.map(() => 'done'))
      expect(await page.textContent('.summary')).not.toContain('The server cannot be reached')
      await page.close()
    }, 90_000)

    test('"Try the failed ones again" sends exactly the failed files again', async () => {
      const page = await suite.browser.context.newPage()
      // One file at a time, in their order: the 2nd and the 4th are refused with a 503 that gives
      // no time to wait, so they fail; every other request reaches the server.
      let requests = 0
      await page.route('**/api/compress**', (route) => {
        requests++
        if (requests !== 2 && requests !== 4) return route.continue()
        return route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: JSON.stringify({ code: 'OVERLOADED', title: 'Server overloaded', status: 503, detail: 'x' }),
        })
      })
      await openTool(page, suite.api.url, 'compress')
      await page.waitForSelector('#quality')
      await page.setInputFiles(
        'input[data-files]',
        FILES.map((name) => join(FIXTURES, name)),
      )
      expect(await settledJobs(page, FILES.length)).toEqual(['done', 'failed', 'done', 'failed', 'done'])
      expect(requests).toBe(FILES.length)
      await page.getByRole('button', { name: 'Try the 2 failed files again' }).click()
      expect(
        await jobsBecome(
          page,
          FILES.map(() => 'done'),
        ),
      ).toEqual(FILES.map(() => 'done'))
      // Two requests more, and the two failed files are the ones now done: nothing else was sent.
      expect(requests).toBe(FILES.length + 2)
      await page.close()
    }, 60_000)
  },
)

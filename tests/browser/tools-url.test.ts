import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page, Request } from 'playwright-core'
import { BINARY, startApi } from '../helpers/api.ts'
import { CURL } from '../examples/example-runner.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { imageOrigin, ORIGIN_ALLOW } from './origin.ts'
import { runShownCommand } from './shown-command.ts'
import { downloadOf, jobsBecome, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('images from a URL in the tools, in a real browser')

/** Each POST /api/compress the page sent: its query's url and the bytes of its body. */
function compressRequests(page: Page): { url: string | null; bodyBytes: number }[] {
  const sent: { url: string | null; bodyBytes: number }[] = []
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().includes('/api/compress')) return
    sent.push({
      url: new URL(request.url()).searchParams.get('url'),
      bodyBytes: request.postDataBuffer()?.length ?? 0,
    })
  })
  return sent
}

/** The failed card's title, detail and whether it offers "Try again". */
function card(page: Page, index = 0) {
  return page
    .locator('.job.status-failed')
    .nth(index)
    .evaluate((row) => ({
      title: row.querySelector('.problem-title')?.textContent ?? '',
      detail: row.querySelector('.problem-detail')?.textContent ?? '',
      retry: [...row.querySelectorAll('.job-actions button')].some((b) => b.textContent === 'Try again'),
    }))
}

async function addUrl(page: Page, url: string, by: 'enter' | 'button' = 'enter') {
  await page.waitForSelector('.url-source button:not([disabled])')
  await page.fill('#source-url', url)
  if (by === 'enter') await page.press('#source-url', 'Enter')
  else await page.click('.url-source button')
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('images from a URL in the tools, in a real browser', () => {
  const origin = imageOrigin()
  const suite = serverAndBrowser({ urlAllow: ORIGIN_ALLOW, urlTimeoutMs: 1500 })

  test('an address compresses end to end: sent as url with no upload, named by its file name, the result shown alone', async () => {
    const page = await suite.browser.context.newPage()
    const watch = watchPage(page, suite.api.url)
    const sent = compressRequests(page)
    await openTool(page, suite.api.url, 'compress')
    await page.selectOption('#format', 'webp')
    const address = `${origin.url}/photos/forest%20path.jpg?size=large`
    const fetched = origin.paths.length
    await addUrl(page, address)
    expect(await settledJobs(page, 1)).toEqual(['done'])
    expect(await page.textContent('.job-name')).toBe('forest path.webp')
    // One request, with the url and no body; the origin heard only from the server.
    expect(sent).toEqual([{ url: address, bodyBytes: 0 }])
    expect(origin.paths.slice(fetched)).toEqual(['/photos/forest%20path.jpg'])
    expect(watch.external).toEqual([])
    // The sizes come from the server's answer: the original's as it counted it.
    const original = Bun.file(join(FIXTURES, 'photo-exif-orientation-6.jpg')).size
    expect(await page.textContent('.job-sizes')).toMatch(/^[\d.]+ KiB → [\d.]+ KiB$/)
    await page.click('.job-actions button:has-text("View")')
    await page.waitForSelector('.compare-alone img')
    expect(await page.textContent('#compare-title')).toBe('forest path.jpg: the result')
    const facts = await page.$$eval('.compare-facts dt', (terms) =>
      Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''])),
    )
    expect(facts.Before).toBe(`${(original / 1024).toFixed(1)} KiB JPEG `)
    expect(facts.After).toMatch(/KiB WebP 600 × 450$/)
    const result = await downloadOf(page, () => page.click('.job-actions button:has-text("Download")'))
    expect(result.name).toBe('forest path.webp')
    expect((await decode(result.bytes)).format).toBe('webp')
    await page.click('.job-curl summary')
    const curl = (await page.textContent('.job-curl code'))!
    expect(curl).toContain(`-X POST -o 'forest path.webp' '${suite.api.url}/api/compress?url=`)
    expect(curl).toContain(`?${new URLSearchParams({ url: address, format: 'webp' })}'`)
    if (!CURL.missing) {
      // The command gets the very bytes the tool got.
      const shown = await runShownCommand(curl, result.name)
      expect(shown.exitCode).toBe(0)
      expect(Bun.hash(shown.bytes!)).toBe(Bun.hash(result.bytes))
    }
    expect(watch.consoleErrors).toEqual([])
    await page.close()
  }, 60_000)

  test('Convert makes an address in several formats with one request: url and variants in the query, nothing uploaded', async () => {
    const page = await suite.browser.context.newPage()
    const variants: (string | null)[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/compress'))
        variants.push(new URL(request.url()).searchParams.get('variants'))
    })
    const sent = compressRequests(page)
    await openTool(page, suite.api.url, 'convert')
    await page.check('input[name="convert-format"][value="webp"]')
    await page.check('input[name="convert-also"][value="png"]')
    await addUrl(page, `${origin.url}/photos/forest%20path.jpg`)
    expect(await settledJobs(page, 2)).toEqual(['done', 'done'])
    expect(sent).toEqual([{ url: `${origin.url}/photos/forest%20path.jpg`, bodyBytes: 0 }])
    expect(variants.map((text) => JSON.parse(text ?? 'null'))).toEqual([
      [{ format: 'webp' }, { format: 'png' }],
    ])
    expect(await page.locator('.job-name').allTextContents()).toEqual(['forest path.webp', 'forest path.png'])
    await page.close()
  }, 60_000)

  test('an address the server refuses is told in the page’s words and not offered again', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'convert')
    await addUrl(page, 'http://10.0.0.1/private.jpg', 'button')
    expect(await settledJobs(page, 1)).toEqual(['failed'])
    expect(await page.textContent('.job-name')).toBe('private.jpg')
    expect(await card(page)).toEqual({
      title: 'URL not allowed',
      detail:
        'This server does not fetch images from this address: it takes only public http and https addresses, or the sites its administrator allowed. Download the image and choose the file instead.',
      retry: false,
    })
    expect(await page.getAttribute('.problem-link a', 'href')).toBe('/docs/reference#URL_NOT_ALLOWED')
    await page.close()
  }, 60_000)

  test('an origin’s 404 is told with its status and not offered again; a slow origin is offered again', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress')
    await addUrl(page, `${origin.url}/missing.jpg`)
    await addUrl(page, `${origin.url}/slow.jpg`)
    expect(await settledJobs(page, 2)).toEqual(['failed', 'failed'])
    expect(await card(page, 0)).toMatchObject({ title: "The image's origin failed", retry: false })
    expect((await card(page, 0)).detail).toStartWith(
      'The address answered with the error 404 instead of the image.',
    )
    expect(await card(page, 1)).toEqual({
      title: "The image's origin was too slow",
      detail:
        "The image's site was too slow to send it. Try again in a moment, or download the image and choose the file instead.",
      retry: true,
    })
    await page.locator('.job.status-failed').nth(1).locator('button:has-text("Try again")').click()
    expect(await jobsBecome(page, ['failed', 'processing'], 5_000)).toEqual(['failed', 'processing'])
    await page.close()
  }, 60_000)

  test('an address that is not http or https is caught in the page, and nothing is sent', async () => {
    const page = await suite.browser.context.newPage()
    const sent = compressRequests(page)
    await openTool(page, suite.api.url, 'compress')
    await addUrl(page, 'ftp://example.com/photo.jpg', 'button')
    expect(await page.textContent('.url-error')).toBe(
      'Give a whole address, starting with http:// or https://.',
    )
    expect(await page.getAttribute('#source-url', 'aria-invalid')).toBe('true')
    expect(await page.locator('.job').count()).toBe(0)
    expect(sent).toEqual([])
    await page.close()
  }, 30_000)

  test('Resize, which works its options out from each file, has no URL field; a server with URL sources off shows none', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'resize')
    expect(await page.locator('#source-url').count()).toBe(0)
    const off = await startApi({ urlSources: 'off' }, { socket: true })
    try {
      await openTool(page, off.url, 'compress')
      expect(await page.locator('#source-url').count()).toBe(0)
    } finally {
      await off.stop()
    }
    await page.close()
  }, 30_000)
})

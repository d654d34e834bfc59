import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { CURL } from '../examples/example-runner.ts'
import { BINARY } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { imageOrigin, ORIGIN_ALLOW } from './origin.ts'
import { browserSession } from './session.ts'
import { runShownCommand } from './shown-command.ts'
import { comparisonFacts, openTester, send, TESTER_FILE } from './tester-page.ts'

announceBrowserSkip("the tester's url field in a real browser")

const PHOTO = join(FIXTURES, 'photo-exif-orientation-6.jpg')

/** The multipart bodies of the POSTs the page sent to /api/compress, as text. */
function compressBodies(page: Page): string[] {
  const bodies: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/compress'))
      bodies.push(request.postDataBuffer()?.toString('latin1') ?? '')
  })
  return bodies
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))("the tester's url field in a real browser", () => {
  const origin = imageOrigin()
  const session = browserSession({ urlAllow: ORIGIN_ALLOW })

  test('sends an image named by url with no file, shows the result alone with the server’s figures, and never asks the origin itself', async () => {
    const page = await session.browser.context.newPage()
    const watch = watchPage(page, session.api.url)
    const bodies = compressBodies(page)
    await openTester(page, session.api)
    const address = `${origin.url}/photos/tree.jpg`
    const fetched = origin.paths.length
    await page.fill('#option-url', address)
    await page.selectOption('#option-format', 'webp')
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    // A form with the url field and no file part; the origin heard only from the server.
    expect(bodies).toHaveLength(1)
    expect(bodies[0]).toContain(`name="url"\r\n\r\n${address}\r\n`)
    expect(bodies[0]).not.toContain('filename=')
    expect(origin.paths.slice(fetched)).toEqual(['/photos/tree.jpg'])
    expect(watch.external).toEqual([])
    await page.waitForSelector('[data-result] .compare-alone img')
    expect(await page.locator('[data-result] .compare img').count()).toBe(1)
    const facts = await comparisonFacts(page)
    const original = Bun.file(PHOTO).size
    expect(facts.Before).toBe(`${(original / 1024).toFixed(1)} KiB JPEG `)
    expect(facts.After).toMatch(/KiB WebP 600 × 450$/)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[download]')])
    expect(download.suggestedFilename()).toBe('tree.webp')
    const saved = await Bun.file((await download.path())!).bytes()
    expect((await decode(saved)).format).toBe('webp')
    // The curl command sends what the tester sent: the url as a form field.
    const curl = (await page.textContent('[data-result] .code-block code'))!
    expect(curl).toBe(
      `curl -F 'url=${address}' -F 'format=webp' -H 'Accept-Language: en' -D - -o 'tree.webp' '${session.api.url}/api/compress'`,
    )
    if (!CURL.missing) {
      const shown = await runShownCommand(curl, 'tree.webp')
      expect(shown.exitCode).toBe(0)
      expect(Bun.hash(shown.bytes!)).toBe(Bun.hash(saved))
    }
    expect(watch.consoleErrors).toEqual([])
    await page.close()
  }, 60_000)

  test('with neither an image nor a url, asks for one and sends nothing', async () => {
    const page = await session.browser.context.newPage()
    const bodies = compressBodies(page)
    await openTester(page, session.api)
    await page.click('[data-send]')
    expect(await page.textContent('.status-text')).toBe('Choose an image, or give its url, first.')
    expect(bodies).toEqual([])
    await page.close()
  }, 30_000)

  test('with both an image and a url, says so before sending and sends nothing; Remove takes the image back', async () => {
    const page = await session.browser.context.newPage()
    const bodies = compressBodies(page)
    await openTester(page, session.api)
    await page.setInputFiles(TESTER_FILE, PHOTO)
    await page.fill('#option-url', `${origin.url}/photos/tree.jpg`)
    const both =
      'An image and a url are both given, and a request takes one or the other: remove the image, or empty url.'
    expect(await page.textContent('[data-both-sources]')).toBe(both)
    await page.click('[data-send]')
    expect(await page.textContent('.status-text')).toBe(both)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('option-url')
    expect(bodies).toEqual([])
    await page.click('.remove-file')
    expect(await page.locator('[data-both-sources]').count()).toBe(0)
    expect(await page.textContent('.file-info')).toBe('')
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    expect(bodies).toHaveLength(1)
    await page.close()
  }, 60_000)

  test('an address the server does not fetch shows its 400 with the code linked to the reference', async () => {
    const page = await session.browser.context.newPage()
    await openTester(page, session.api)
    await page.fill('#option-url', 'http://169.254.169.254/latest/meta-data/')
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('400 Bad Request')
    expect(await page.getAttribute('.problem a', 'href')).toBe('/docs/reference#URL_NOT_ALLOWED')
    expect(await page.locator('[data-result] .compare').count()).toBe(0)
    await page.close()
  }, 30_000)
})

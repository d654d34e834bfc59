import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BINARY } from '../helpers/api.ts'
import { decode, decodePixels } from '../helpers/images.ts'
import { CORPUS, FIXTURES, HAS_CORPUS } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { browserSession } from './session.ts'
import { comparedPictures, comparisonFacts, openTester, send, TESTER_FILE } from './tester-page.ts'

announceBrowserSkip('the tester in a real browser')

// A real photo from the corpus when it is there; the fixture photo otherwise. Both are wider
// than WIDTH (the fixture is 600 px once turned upright), so the result is WIDTH wide either way.
const PHOTO = HAS_CORPUS
  ? join(CORPUS, 'photo-forest-path-4mp.jpg')
  : join(FIXTURES, 'photo-exif-orientation-6.jpg')
const WIDTH = 400

describe.skipIf(!HAS_CHROMIUM)('the tester in a real browser', () => {
  const session = browserSession()

  test.skipIf(Boolean(BINARY))(
    'runs GET /api/health and shows the status, the time, the headers and the JSON',
    async () => {
      const page = await session.browser.context.newPage()
      await openTester(page, session.api)
      await page.check('input[name="endpoint"][value="health"]')
      expect(await page.isHidden('[data-for-endpoint="compress"]')).toBe(true)
      await send(page)
      expect(await page.textContent('.status-line')).toMatch(/^200 OK in \d+ ms$/)
      expect(await page.textContent('[data-result] pre.json')).toContain('"status": "ok"')
      expect(await page.textContent('[data-result] table.headers')).toContain('x-request-id')
      expect(await page.textContent('[data-result] .code-block code')).toBe(
        `curl -i -H 'Accept-Language: en' '${session.api.url}/api/health'`,
      )
      await page.close()
    },
    30_000,
  )

  test.skipIf(Boolean(BINARY))(
    'runs GET /api/formats',
    async () => {
      const page = await session.browser.context.newPage()
      await openTester(page, session.api)
      await page.check('input[name="endpoint"][value="formats"]')
      await send(page)
      expect(await page.textContent('.status-line')).toStartWith('200 OK')
      expect(await page.textContent('[data-result] pre.json')).toContain('"id": "webp"')
      await page.close()
    },
    30_000,
  )

  test('compresses a photo: before and after with both sizes and the saving, a working download, and the curl command', async () => {
    const page = await session.browser.context.newPage()
    const watch = watchPage(page, session.api.url)
    await openTester(page, session.api)
    await page.setInputFiles(TESTER_FILE, PHOTO)
    await page.selectOption('#option-format', 'webp')
    await page.fill('#option-quality', '70')
    await page.fill('#option-width', String(WIDTH))
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    expect(await comparedPictures(page)).toBe(2)
    const facts = await comparisonFacts(page)
    expect(facts.Before).toMatch(/(KiB|MiB)/)
    expect(facts.After).toMatch(new RegExp(`(KiB|MiB) WebP ${WIDTH} × \\d+`))
    expect(facts.Change).toMatch(/^\d+(\.\d)?% smaller$/)
    expect(await page.textContent('[data-result] .compare-facts dd.smaller')).toBe(facts.Change!)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[download]')])
    expect(download.suggestedFilename()).toMatch(/\.webp$/)
    const saved = await decode(await Bun.file((await download.path())!).bytes())
    expect([saved.format, saved.width]).toEqual(['webp', WIDTH])
    const curl = await page.textContent('[data-result] .code-block code')
    expect(curl).toContain(`-F 'format=webp' -F 'quality=70' -F 'width=${WIDTH}'`)
    expect(curl).toContain(`-o '${download.suggestedFilename()}'`)
    expect(watch.consoleErrors).toEqual([])
    await page.close()
  }, 60_000)

  test.skipIf(Boolean(BINARY))(
    "shows the JSON envelope, and its image decoded from the data: URL under the page's CSP",
    async () => {
      const page = await session.browser.context.newPage()
      const watch = watchPage(page, session.api.url)
      await openTester(page, session.api)
      await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'webp-lossy-alpha.webp'))
      await page.selectOption('#option-format', 'png')
      await page.check('input[name="accept"][value="json"]')
      await send(page)
      expect(await page.textContent('.status-line')).toStartWith('200 OK')
      expect(await page.textContent('[data-result] pre.json')).toContain('"outputFormat": "png"')
      expect(await comparedPictures(page)).toBe(2)
      expect(await page.textContent('[data-result] .code-block code')).toContain(
        `-H 'Accept: application/json'`,
      )
      expect(watch.consoleErrors).toEqual([])
      await page.close()
    },
    30_000,
  )

  test.skipIf(Boolean(BINARY))(
    "shows a bad file's problem with its code linked to the reference",
    async () => {
      const page = await session.browser.context.newPage()
      await openTester(page, session.api)
      await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'bad-text-file.png'))
      await send(page)
      expect(await page.textContent('.status-line')).toStartWith('415 Unsupported Media Type')
      const link = page.locator('.problem a').first()
      expect(await link.getAttribute('href')).toBe('/docs/reference#UNSUPPORTED_MEDIA_TYPE')
      expect(await page.textContent('[data-result] pre.json')).toContain('"code": "UNSUPPORTED_MEDIA_TYPE"')
      await page.close()
    },
    30_000,
  )

  test.skipIf(Boolean(BINARY))(
    "compares a TIFF result, which the browser cannot show, through the server's WebP of it, with its own facts",
    async () => {
      const page = await session.browser.context.newPage()
      const previews: string[] = []
      page.on('request', (request) => {
        if (request.url().includes('/api/compress?format=webp&width=')) previews.push(request.url())
      })
      await openTester(page, session.api)
      await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'photo-exif-orientation-6.jpg'))
      await page.selectOption('#option-format', 'tiff')
      await send(page)
      expect(await comparedPictures(page)).toBe(2)
      await page.waitForSelector('[data-result] .compare-facts .note')
      const facts = await comparisonFacts(page)
      expect(facts.After).toMatch(/TIFF (450 × 600|600 × 450)/)
      expect(facts.After).toContain('this browser cannot show TIFF')
      // The JPEG original is shown as it is; only the TIFF result needed the server.
      expect(facts.Before).not.toContain('cannot show')
      expect(previews).toHaveLength(1)
      await page.close()
    },
    30_000,
  )

  test.skipIf(Boolean(BINARY))(
    'sends a watermark as the overlay field, and the curl command names it',
    async () => {
      const page = await session.browser.context.newPage()
      await openTester(page, session.api)
      await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'photo-exif-orientation-6.jpg'))
      await page.setInputFiles('#tester-overlay', join(FIXTURES, 'webp-lossy-alpha.webp'))
      await page.selectOption('#option-format', 'png')
      await page.fill('#option-width', '200')
      await send(page)
      expect(await page.textContent('.status-line')).toStartWith('200 OK')
      const curl = (await page.textContent('[data-result] .code-block code'))!
      expect(curl).toContain(`-F 'file=@photo-exif-orientation-6.jpg' -F 'overlay=@webp-lossy-alpha.webp'`)
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[download]')])
      const marked = await Bun.file((await download.path())!).bytes()
      // The same request without the overlay: the watermark changed the pixels.
      const form = new FormData()
      form.append('file', Bun.file(join(FIXTURES, 'photo-exif-orientation-6.jpg')))
      form.append('format', 'png')
      form.append('width', '200')
      const plain = new Uint8Array(
        await (await session.api.fetch('/api/compress', { method: 'POST', body: form })).arrayBuffer(),
      )
      expect((await decode(marked)).width).toBe(200)
      expect(Buffer.compare(await decodePixels(marked), await decodePixels(plain))).not.toBe(0)
      await page.close()
    },
    30_000,
  )

  test.skipIf(Boolean(BINARY))(
    'narrows each option to the chosen format, with its range on this server',
    async () => {
      const page = await session.browser.context.newPage()
      await openTester(page, session.api)
      await page.selectOption('#option-format', 'gif')
      expect(await page.isDisabled('#option-quality')).toBe(true)
      expect(await page.textContent('[data-option="quality"] [data-range]')).toBe('Not used by gif.')
      await page.selectOption('#option-format', 'avif')
      expect(await page.isDisabled('#option-quality')).toBe(false)
      expect(await page.getAttribute('#option-effort', 'max')).toBe('9')
      expect(await page.textContent('[data-option="effort"] [data-range]')).toBe('0 to 9, default 3')
      await page.selectOption('#option-format', 'tiff')
      expect(await page.isDisabled('#option-quality')).toBe(false)
      expect(await page.isDisabled('#option-effort')).toBe(true)
      // Back to the default format: no format's range or placeholder is left behind.
      await page.selectOption('#option-format', '')
      expect(await page.getAttribute('#option-quality', 'placeholder')).toBeNull()
      expect(await page.getAttribute('#option-effort', 'max')).toBe('10')
      // quality takes a number or a word: free text, with the words offered.
      expect(await page.getAttribute('#option-quality', 'list')).toBe('option-quality-words')
      expect(
        await page.$$eval('#option-quality-words option', (o) =>
          o.map((x) => (x as HTMLOptionElement).value),
        ),
      ).toEqual(['auto', 'auto-high', 'auto-medium', 'auto-low'])
      await page.close()
    },
    30_000,
  )
})

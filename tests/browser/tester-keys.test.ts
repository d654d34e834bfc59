import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { browserSession } from './session.ts'
import { comparedPictures, openTester, send, TESTER_FILE } from './tester-page.ts'

announceBrowserSkip('the tester with API keys on')

const KEY = 'tester-key-0123456789abcdef0123456789abcdef'

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the tester with API keys on', () => {
  const session = browserSession({ apiKeys: KEY })

  test('sends the key typed in as Authorization: Bearer, compresses, and names the key in the curl command without showing it', async () => {
    const page = await session.browser.context.newPage()
    const watch = watchPage(page, session.api.url)
    await openTester(page, session.api)
    await page.fill('#api-key', KEY)
    await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'webp-lossy-alpha.webp'))
    await page.selectOption('#option-format', 'png')
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('200 OK')
    expect(await comparedPictures(page)).toBe(2)
    const curl = (await page.textContent('[data-result] .code-block code'))!
    expect(curl).toContain(`-H "Authorization: Bearer $IMGAPI_KEY"`)
    expect(curl).not.toContain(KEY)
    expect(await page.textContent('[data-result] .code-block + .hint')).toContain('IMGAPI_KEY')
    expect(watch.consoleErrors).toEqual([])
    await page.close()
  }, 30_000)

  test('without a key the server answers 401 UNAUTHORIZED, and the curl command sends none', async () => {
    const page = await session.browser.context.newPage()
    await openTester(page, session.api)
    await page.setInputFiles(TESTER_FILE, join(FIXTURES, 'webp-lossy-alpha.webp'))
    await send(page)
    expect(await page.textContent('.status-line')).toStartWith('401 Unauthorized')
    expect(await page.textContent('.problem')).toContain('UNAUTHORIZED')
    expect(await page.textContent('[data-result] .code-block code')).not.toContain('Authorization')
    await page.close()
  }, 30_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { CURL } from '../examples/example-runner.ts'
import { newKey } from '../../src/access/new-key.ts'
import { BINARY, startApi } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { CORPUS, FIXTURES, HAS_CORPUS } from '../helpers/paths.ts'
import { readZip } from '../helpers/zip.ts'
import { announceBrowserSkip, HAS_CHROMIUM, watchPage } from './chromium.ts'
import { downloadOf, jobsBecome, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the Compress tool in a real browser')

const TARGET_KIB = 40
/** Five images in a folder with a sub-folder: corpus photos when the corpus is there. */
const BATCH: readonly [string, string][] = HAS_CORPUS
  ? [
      [join(CORPUS, 'photo-pier-4mp.jpg'), 'pier.jpg'],
      [join(CORPUS, 'photo-forest-path-4mp.jpg'), 'forest.jpg'],
      [join(CORPUS, 'png-screenshot-rgba-marble.png'), 'screens/marble.png'],
      [join(CORPUS, 'webp-lossy-photo-tree.webp'), 'screens/tree.webp'],
      [join(CORPUS, 'photo-exif-orientation-6.jpg'), 'screens/phone.jpg'],
    ]
  : [
      [join(FIXTURES, 'photo-exif-orientation-6.jpg'), 'phone.jpg'],
      [join(FIXTURES, 'webp-lossy-alpha.webp'), 'alpha.webp'],
      [join(FIXTURES, 'tiff-rgb-uncompressed.tiff'), 'scans/scan.tiff'],
      [join(FIXTURES, 'png-apng-animated-ball.png'), 'scans/ball.png'],
      [join(FIXTURES, 'gif-animated-10frames.gif'), 'scans/loop.gif'],
    ]

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the Compress tool in a real browser', () => {
  const suite = serverAndBrowser()
  let folder: string
  beforeAll(() => {
    folder = join(mkdtempSync(join(tmpdir(), 'imgapi-tools-')), 'holiday')
    for (const [source, name] of BATCH) {
      mkdirSync(join(folder, name, '..'), { recursive: true })
      copyFileSync(source, join(folder, name))
    }
  })
  afterAll(() => {
    rmSync(join(folder, '..'), { recursive: true, force: true })
  })

  for (const language of ['en', 'fa']) {
    test(`in ${language}: a folder of five under a target size, as one ZIP with its names and sub-folders, every entry in its format and under the target`, async () => {
      const page = await suite.browser.context.newPage()
      const watch = watchPage(page, suite.api.url)
      await openTool(page, suite.api.url, 'compress', language)
      await page.waitForSelector('#target')
      await page.fill('#target', String(TARGET_KIB))
      await page.check('#allow-resize')
      await page.setInputFiles('input[data-folder]', folder)
      expect(await settledJobs(page, BATCH.length)).toEqual(BATCH.map(() => 'done'))
      const zip = await downloadOf(page, () => page.click('[data-download-all]'))
      expect(zip.name).toBe('imgapi-compress.zip')
      const entries = readZip(zip.bytes)
      // Format "original": each keeps its name, under the folder it was chosen from.
      expect(entries.map((entry) => entry.name).sort()).toEqual(
        BATCH.map(([, name]) => `holiday/${name.replace(/\.tiff$/, '.tif')}`).sort(),
      )
      for (const entry of entries) {
        const image = await decode(entry.bytes)
        const extension = entry.name.split('.').pop()!
        const format = { jpg: 'jpeg', tif: 'tiff' }[extension] ?? extension
        expect({ name: entry.name, format: image.format }).toEqual({ name: entry.name, format })
        expect(entry.bytes.length, entry.name).toBeLessThanOrEqual(TARGET_KIB * 1024)
      }
      // The comparison is never mirrored: before on the left, in Persian too.
      await page.locator('.job-actions button').first().click()
      expect(await page.locator('.compare').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
      const before = await page.locator('.compare-label-before').boundingBox()
      const after = await page.locator('.compare-label-after').boundingBox()
      expect(before!.x).toBeLessThan(after!.x)
      const totals = await page.textContent('.totals')
      expect(totals).toContain(language === 'fa' ? 'صرفه‌جویی' : 'saved')
      expect({ errors: watch.consoleErrors, external: watch.external }).toEqual({ errors: [], external: [] })
      await page.close()
    }, 240_000)
  }

  test.skipIf(CURL.missing !== undefined)(
    '"the same request with curl" gives the very bytes the tool got',
    async () => {
      const page = await suite.browser.context.newPage()
      await openTool(page, suite.api.url, 'compress')
      await page.waitForSelector('#quality')
      await page.selectOption('#format', 'webp')
      await page.selectOption('#quality', 'auto-high')
      const [source] = BATCH[0]!
      await page.setInputFiles('input[data-files]', source)
      expect(await settledJobs(page, 1)).toEqual(['done'])
      const result = await downloadOf(page, () => page.click('.job-actions button >> nth=1'))
      await page.click('.job-curl summary')
      const command = (await page.textContent('.job-curl code'))!
      expect(command).toContain('format=webp')
      expect(command).toContain('quality=auto-high')
      // The command names the file as it was chosen and writes the result under its new name.
      const dir = mkdtempSync(join(tmpdir(), 'imgapi-curl-'))
      copyFileSync(source, join(dir, source.split('/').pop()!))
      // Not spawnSync: the server answering curl runs in this very process.
      const run = Bun.spawn(['bash', '-c', command], { cwd: dir, stderr: 'pipe' })
      const [stderr, exitCode] = await Promise.all([new Response(run.stderr).text(), run.exited])
      expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 })
      const fromCurl = await Bun.file(join(dir, result.name)).bytes()
      expect(fromCurl.length).toBe(result.bytes.length)
      expect(Bun.hash(fromCurl)).toBe(Bun.hash(result.bytes))
      rmSync(dir, { recursive: true, force: true })
      await page.close()
    },
    120_000,
  )

  test('a file over the upload limit fails before it is sent, with the reason and a link to the error', async () => {
    const small = await startApi({ maxUploadBytes: 1000 }, { socket: true })
    try {
      const page = await suite.browser.context.newPage()
      const sent: string[] = []
      page.on('request', (request) => request.method() === 'POST' && sent.push(request.url()))
      await openTool(page, small.url, 'compress')
      await page.waitForSelector('#quality')
      await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
      expect(await settledJobs(page, 1)).toEqual(['failed'])
      expect(await page.textContent('.problem-text')).toContain('Too large for this server')
      expect(await page.getAttribute('.problem-text a', 'href')).toBe('/docs/reference#PAYLOAD_TOO_LARGE')
      expect(sent).toEqual([])
      await page.close()
    } finally {
      await small.stop()
    }
  }, 60_000)

  test('a 16-bit PNG made into an 8-bit palette PNG says so on its card', async () => {
    const gradient = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="64"><defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="256" height="64" fill="url(#g)"/></svg>',
    )
    const deep = join(folder, '..', 'deep.png')
    await sharp(gradient).toColourspace('rgb16').png().toFile(deep)
    expect((await sharp(deep).metadata()).depth).toBe('ushort')
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    await page.setInputFiles('input[data-files]', deep)
    expect(await settledJobs(page, 1)).toEqual(['done'])
    expect(await page.locator('.job .depth-note').textContent()).toBe(
      'The original has 16 bits per channel; this PNG has 8, in a palette of at most 256 colours.',
    )
    // An 8-bit PNG has nothing to say. (The list is empty first, so the wait below cannot take
    // the cleared row, still done, for the new one.)
    await page.click('[data-clear]')
    await page.waitForSelector('.job', { state: 'detached' })
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'png-apng-animated-ball.png'))
    expect(await settledJobs(page, 1)).toEqual(['done'])
    expect(await page.locator('.job .depth-note').count()).toBe(0)
    await page.close()
  }, 60_000)

  test('presets: saved by name, brought back after a reload, exported as JSON and imported again', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    await page.selectOption('#format', 'avif')
    await page.selectOption('#quality', 'number')
    await page.fill('#quality-number', '42')
    await page.click('.presets summary')
    await page.fill('.presets input[type="text"]', 'small avif')
    await page.click('.preset-save button[type="submit"]')
    expect(await page.textContent('.presets code')).toContain('format=avif&quality=42')
    const exported = await downloadOf(page, () => page.click('.preset-files button >> nth=0'))
    expect(JSON.parse(new TextDecoder().decode(exported.bytes))['small avif']).toMatchObject({
      format: 'avif',
      quality: 'number',
      qualityNumber: 42,
    })
    await page.reload()
    await page.waitForSelector('#quality')
    expect(await page.inputValue('#format')).toBe('original')
    await page.click('.presets summary')
    await page.click('.preset-apply')
    expect(await page.inputValue('#format')).toBe('avif')
    expect(await page.inputValue('#quality-number')).toBe('42')
    // An imported file adds its presets to those already saved.
    const file = join(folder, '..', 'presets.json')
    await Bun.write(file, JSON.stringify({ tiny: { format: 'webp', quality: 'auto-low' } }))
    // The file is read, then the list redrawn: the message says when the import is over.
    const applied = await page.textContent('.presets [role="status"]')
    await page.setInputFiles('.preset-files input[type="file"]', file)
    await page.waitForFunction(
      (before) => document.querySelector('.presets [role="status"]')?.textContent !== before,
      applied,
    )
    expect(await page.locator('.preset-apply').allTextContents()).toEqual(['small avif', 'tiny'])
    await page.close()
  }, 60_000)

  test("a format the browser cannot show is compared through the server's WebP of it", async () => {
    const page = await suite.browser.context.newPage()
    const previews: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/compress?format=webp&width=')) previews.push(request.url())
    })
    await openTool(page, suite.api.url, 'compress')
    await page.waitForSelector('#quality')
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'tiff-rgb-uncompressed.tiff'))
    expect(await settledJobs(page, 1)).toEqual(['done'])
    await page.locator('.job-actions button').first().click()
    // Both previews come from the server, each in its own time.
    await page.waitForFunction(() => document.querySelectorAll('.compare img').length === 2)
    await page.waitForFunction(() => document.querySelectorAll('.compare-facts .note').length === 2)
    expect(await page.textContent('.compare-facts')).toContain('this browser cannot show TIFF')
    // One preview for the original, one for the result: both TIFF.
    expect(previews).toHaveLength(2)
    await page.close()
  }, 60_000)

  test('with API keys on, files chosen before the key wait for it, and go once it is given; a refused key holds them again', async () => {
    const key = newKey()
    const guarded = await startApi({ apiKeys: key }, { socket: true })
    try {
      const page = await suite.browser.context.newPage()
      const sent: (string | undefined)[] = []
      page.on('request', (request) => {
        if (request.method() === 'POST') sent.push(request.headers().authorization)
      })
      await openTool(page, guarded.url, 'compress')
      await page.waitForSelector('#api-key')
      expect(await page.textContent('#api-key-hint')).toContain('stays in this browser tab only')
      const files = [join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(FIXTURES, 'webp-lossy-alpha.webp')]
      await page.setInputFiles('input[data-files]', files)
      // Held, not sent and refused: each card says what it waits for.
      expect(await jobsBecome(page, ['needsKey', 'needsKey'])).toEqual(['needsKey', 'needsKey'])
      expect(await page.locator('.job .job-status').first().textContent()).toBe(
        'Waiting for the API key: type it above, then press “Use this key”',
      )
      await page.waitForTimeout(500)
      expect(sent).toEqual([])
      // A wrong key: sent, refused, held again with the reason.
      await page.fill('#api-key', 'not-the-key')
      await page.click('.key-field button')
      await page.waitForFunction(() =>
        document
          .querySelector('.job .job-status')
          ?.textContent?.startsWith('This server did not accept the key'),
      )
      expect(await jobsBecome(page, ['needsKey', 'needsKey'])).toEqual(['needsKey', 'needsKey'])
      expect(sent.length).toBeGreaterThan(0)
      expect(sent.every((header) => header === 'Bearer not-the-key')).toBe(true)
      // The right one: both go, with it.
      sent.length = 0
      await page.fill('#api-key', key)
      await page.click('.key-field button')
      expect(await page.evaluate(() => sessionStorage.getItem('imgapi-api-key'))).toBe(key)
      expect(await settledJobs(page, 2)).toEqual(['done', 'done'])
      expect(sent).toEqual([`Bearer ${key}`, `Bearer ${key}`])
      await page.click('.job-curl summary >> nth=0')
      expect(await page.textContent('.job-curl code')).toContain('"Authorization: Bearer $IMGAPI_KEY"')
      await page.close()
    } finally {
      await guarded.stop()
    }
  }, 60_000)

  test('the home takes the files first, then opens the tool chosen with them, at its own address', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'home')
    await page.setInputFiles('input[data-files]', [
      join(FIXTURES, 'photo-exif-orientation-6.jpg'),
      join(FIXTURES, 'webp-lossy-alpha.webp'),
    ])
    expect(await page.textContent('#choice-title')).toBe('2 images ready. What should happen to them?')
    await page.click('.choice-buttons button.primary')
    await page.waitForURL('**/tools/compress')
    expect(await page.textContent('main h1')).toBe('Compress')
    expect(await settledJobs(page, 2)).toEqual(['done', 'done'])
    await page.close()
  }, 60_000)

  /** A photo compressed and its result compared: the page and the comparison's divider. */
  async function comparing() {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress')
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
    expect(await settledJobs(page, 1)).toEqual(['done'])
    await page.locator('.job-actions button').first().click()
    return { page, slider: page.getByRole('slider', { name: 'Divider between before and after' }) }
  }

  test('the divider is a slider: arrow keys, Home and End move it, and so do the buttons and a click', async () => {
    const { page, slider } = await comparing()
    await slider.focus()
    const value = () => slider.getAttribute('aria-valuenow')
    expect(await value()).toBe('50')
    await page.keyboard.press('ArrowRight')
    expect(await value()).toBe('51')
    await page.keyboard.press('End')
    expect(await value()).toBe('100')
    await page.keyboard.press('Home')
    expect(await value()).toBe('0')
    await page.getByRole('button', { name: 'Both', exact: true }).click()
    expect(await value()).toBe('50')
    // A single click (no drag) a quarter of the way across puts the divider there.
    const stage = (await page.locator('.compare-stage').boundingBox())!
    await page.mouse.click(stage.x + stage.width / 4, stage.y + stage.height / 2)
    expect(Number(await value())).toBeCloseTo(25, 0)
    // Zoom works on both pictures at once: one stage, twice as wide.
    await page.getByRole('button', { name: 'Zoom in' }).click()
    await page.getByRole('button', { name: 'Zoom in' }).click()
    const zoomed = (await page.locator('.compare-stage').boundingBox())!
    expect(Math.round(zoomed.width / stage.width)).toBe(2)
    await page.close()
  }, 60_000)

  test('zoomed in, dragging the picture pans it and leaves the divider; dragging the divider still moves it', async () => {
    const { page, slider } = await comparing()
    const value = async () => Number(await slider.getAttribute('aria-valuenow'))
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click()
    const view = page.locator('.compare-view')
    const scrolled = () => view.evaluate((box) => [box.scrollLeft, box.scrollTop])
    const [left, top] = await scrolled()
    const box = (await view.boundingBox())!
    // From a point of the picture away from the divider, 120 px to the left and 40 px up.
    const from = { x: box.x + box.width / 4, y: box.y + box.height / 2 }
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(from.x - 60, from.y - 20, { steps: 4 })
    await page.mouse.move(from.x - 120, from.y - 40, { steps: 4 })
    await page.mouse.up()
    const [leftAfter, topAfter] = await scrolled()
    expect([Math.round(leftAfter! - left!), Math.round(topAfter! - top!)]).toEqual([120, 40])
    expect(await value()).toBe(50)
    // The divider's own handle is still dragged.
    const handle = (await page.locator('.compare-grip').boundingBox())!
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + handle.width / 2 - 100, handle.y + handle.height / 2, { steps: 5 })
    await page.mouse.up()
    expect(await value()).toBeLessThan(50)
    await page.close()
  }, 60_000)
})

// Against the executable alone in an empty directory (npm run test:binary): the tool's script,
// its lazily loaded chunks (the ZIP writer) and the API, all from the one file. The suites above
// cover the same in depth against the sources.
describe.skipIf(!HAS_CHROMIUM || !BINARY)('the Compress tool against the executable', () => {
  const suite = serverAndBrowser()

  test('compresses a batch of two to WebP in Persian and downloads it as one ZIP of WebP images', async () => {
    const page = await suite.browser.context.newPage()
    const watch = watchPage(page, suite.api.url)
    await openTool(page, suite.api.url, 'compress', 'fa')
    await page.waitForSelector('#format')
    await page.selectOption('#format', 'webp')
    await page.setInputFiles('input[data-files]', [
      join(FIXTURES, 'photo-exif-orientation-6.jpg'),
      join(FIXTURES, 'webp-lossy-alpha.webp'),
    ])
    expect(await settledJobs(page, 2)).toEqual(['done', 'done'])
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    const entries = readZip(zip.bytes)
    expect(entries.map((entry) => entry.name).sort()).toEqual([
      'photo-exif-orientation-6.webp',
      'webp-lossy-alpha.webp',
    ])
    for (const entry of entries) expect((await decode(entry.bytes)).format).toBe('webp')
    expect({ errors: watch.consoleErrors, external: watch.external }).toEqual({ errors: [], external: [] })
    await page.close()
  }, 120_000)
})

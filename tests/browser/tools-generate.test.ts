import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { decode as decodeBlurHash } from 'blurhash'
import sharp from 'sharp'
import { BINARY } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { CORPUS, FIXTURES, HAS_CORPUS } from '../helpers/paths.ts'
import { readZip } from '../helpers/zip.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { downloadOf, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the generators in a real browser')

const PHOTO = HAS_CORPUS
  ? join(CORPUS, 'photo-forest-path-4mp.jpg')
  : join(FIXTURES, 'photo-exif-orientation-6.jpg')
const BASE = PHOTO.split('/')
  .pop()!
  .replace(/\.jpg$/, '')

/** The mean colour of an image (or of raw RGBA pixels), channel by channel. */
function mean(pixels: Uint8ClampedArray | Buffer, channels: number): number[] {
  const sums = [0, 0, 0]
  for (let i = 0; i < pixels.length; i += channels) for (let c = 0; c < 3; c++) sums[c]! += pixels[i + c]!
  return sums.map((sum) => sum / (pixels.length / channels))
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the generators in a real browser', () => {
  const suite = serverAndBrowser()

  test('the responsive set: each width in AVIF, WebP and JPEG, in a ZIP with the <picture> markup that names them', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'responsive')
    for (const width of ['480', '800', '1,280', '1,920'])
      await page.getByLabel(width, { exact: true }).uncheck()
    for (const width of ['320', '640']) await page.getByLabel(width, { exact: true }).check()
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.click('[data-generate]')
    expect(await settledJobs(page, 6)).toEqual(Array(6).fill('done'))
    await page.waitForSelector('.tool-results .code-block')
    const markup = (await page.textContent('.tool-results .code-block code'))!
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    const entries = readZip(zip.bytes)
    const images = entries.filter((entry) => entry.name !== 'picture.html')
    expect(images.map((entry) => entry.name).sort()).toEqual(
      ['avif', 'jpg', 'webp'].flatMap((ext) => [320, 640].map((w) => `${BASE}-${w}.${ext}`)).sort(),
    )
    for (const entry of images) {
      const image = await decode(entry.bytes)
      const [, width, ext] = /-(\d+)\.(\w+)$/.exec(entry.name)!
      expect([entry.name, image.format, image.width]).toEqual([
        entry.name,
        { jpg: 'jpeg', avif: 'heif' }[ext!] ?? ext,
        Number(width),
      ])
    }
    expect(new TextDecoder().decode(entries.find((e) => e.name === 'picture.html')!.bytes)).toBe(
      `${markup}\n`,
    )
    expect(markup).toStartWith('<picture>')
    expect(markup).toContain('<source type="image/avif"')
    expect(markup).toContain('<source type="image/webp"')
    for (const entry of images) expect(markup).toContain(`${entry.name} ${/-(\d+)\./.exec(entry.name)![1]}w`)
    const jpeg640 = await decode(images.find((e) => e.name.endsWith('-640.jpg'))!.bytes)
    expect(markup).toContain(`<img src="${BASE}-640.jpg" width="640" height="${jpeg640.height}"`)
    await page.close()
  }, 180_000)

  test('placeholders: a BlurHash that decodes to the colours of the image, a tiny WebP data URI, a dominant colour', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'placeholders')
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.waitForSelector('.placeholder .code-block', { timeout: 60_000 })
    const codes = await page.locator('.placeholder .code-block code').allTextContents()
    const hash = codes[1]!
    expect(hash).toMatch(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,}$/)
    const decoded = decodeBlurHash(hash, 32, 32)
    const { data } = await sharp(PHOTO)
      .rotate()
      .resize(32)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const [hashMean, imageMean] = [mean(decoded, 4), mean(data, 3)]
    for (let c = 0; c < 3; c++) expect(Math.abs(hashMean[c]! - imageMean[c]!)).toBeLessThan(16)
    const lqip = /src="data:image\/webp;base64,([^"]+)"/.exec(codes[0]!)![1]!
    const tiny = await decode(Buffer.from(lqip, 'base64'))
    expect([tiny.format, tiny.width]).toEqual(['webp', 24])
    expect(codes[codes.length - 1]).toMatch(/^background-color: #[0-9a-f]{6};$/)
    await page.close()
  }, 90_000)

  test('the social card: 1200 × 630, compressed by the server, with the title drawn in', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'social', 'fa')
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.fill('#card-title', 'فشرده‌سازی تصویر، بدون نصب')
    await page.click('[data-generate]')
    expect(await settledJobs(page, 1)).toEqual(['done'])
    const card = await downloadOf(page, () => page.locator('.job-actions button').first().click())
    const image = await decode(card.bytes)
    expect([card.name, image.format, image.width, image.height]).toEqual([
      `${BASE}-social-card.jpg`,
      'jpeg',
      1200,
      630,
    ])
    await page.close()
  }, 90_000)
})

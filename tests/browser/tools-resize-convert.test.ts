import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { BINARY } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { readZip } from '../helpers/zip.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { downloadOf, largePhoto, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('Resize and Convert in a real browser')

const PHOTO = await largePhoto('photo-pier-4mp.jpg')

/** The pixel at (x, y) of an image, as sharp decodes it. */
async function pixel(bytes: Uint8Array | string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return [...data.subarray(at, at + 3)]
}

const near = (actual: number[], expected: number[], tolerance: number) =>
  actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance)

async function resultOf(page: Page): Promise<{ name: string; bytes: Uint8Array }> {
  expect(await settledJobs(page, 1)).toEqual(['done'])
  return downloadOf(page, () => page.locator('.job-actions button').nth(1).click())
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('Resize and Convert in a real browser', () => {
  const suite = serverAndBrowser()
  let scratch: string
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'imgapi-tools-'))
  })
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true })
  })

  for (const language of ['en', 'fa']) {
    test(`in ${language}: the Open Graph size gives 1200 × 630, filled and cropped like the original`, async () => {
      const page = await suite.browser.context.newPage()
      await openTool(page, suite.api.url, 'resize', language)
      await page.locator('button.target').first().click()
      expect(await page.inputValue('#width')).toBe('1200')
      expect(await page.inputValue('#height')).toBe('630')
      expect(await page.isChecked('input[name="fit"][value="cover"]')).toBe(true)
      await page.setInputFiles('input[data-files]', PHOTO)
      const result = await resultOf(page)
      const image = await decode(result.bytes)
      expect([image.format, image.width, image.height]).toEqual(['jpeg', 1200, 630])
      const expected = await sharp(PHOTO).rotate().resize(1200, 630, { fit: 'cover' }).toBuffer()
      for (const [x, y] of [
        [600, 315],
        [100, 100],
        [1100, 530],
      ] as const)
        expect(near(await pixel(result.bytes, x, y), await pixel(expected, x, y), 24)).toBe(true)
      await page.close()
    }, 60_000)
  }

  test('a social size with the smart crop (position=attention) keeps the striking object at one side, where the centre would cut it off', async () => {
    // Dark and flat, with a bright, detailed disc near the right edge: the centre crop of a
    // square misses it entirely.
    const stripes = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><defs><pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse"><rect width="20" height="40" fill="#ff2000"/><rect x="20" width="20" height="40" fill="#ffe000"/></pattern></defs><circle cx="200" cy="200" r="190" fill="url(#p)"/></svg>`,
    )
    const scene = join(scratch, 'object-at-the-right.png')
    await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#202020' } })
      .composite([{ input: stripes, left: 1950, top: 400 }])
      .png()
      .toFile(scene)
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'resize')
    await page.locator('button.target', { hasText: 'Instagram square' }).click()
    expect(await page.isChecked('input[name="fit"][value="cover"]')).toBe(true)
    await page.locator('input[name="position"][value="attention"]').check()
    expect(await page.textContent('.position-picker')).toContain('Smart: the most striking part')
    expect(await page.textContent('fieldset:has(input[name="dpr"])')).toContain('2× (high-density screens)')
    await page.setInputFiles('input[data-files]', scene)
    const result = await resultOf(page)
    const image = await decode(result.bytes)
    expect([image.width, image.height]).toEqual([1080, 1080])
    const stats = await sharp(result.bytes).stats()
    const centre = await sharp(await sharp(scene).resize(1080, 1080, { fit: 'cover' }).toBuffer()).stats()
    // The disc is red and yellow: in the square it lifts the red channel's mean well above the
    // flat grey's 32, which is all the centre crop has.
    expect(centre.channels[0]!.mean).toBeLessThan(33)
    expect(stats.channels[0]!.mean).toBeGreaterThan(centre.channels[0]!.mean + 10)
    // And it is where sharp's own attention crop puts it: in the right part of the square.
    const expected = await sharp(scene).resize(1080, 1080, { fit: 'cover', position: 'attention' }).toBuffer()
    for (const [x, y] of [
      [200, 540],
      [980, 540],
      [900, 300],
    ] as const)
      expect(near(await pixel(result.bytes, x, y), await pixel(expected, x, y), 24)).toBe(true)
    await page.close()
  }, 60_000)

  test('a size the image is too small for says so on its card, and enlarges it or pads it to the shape on request', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'resize')
    await page.locator('button.target', { hasText: 'Open Graph' }).click()
    // 600 × 450 upright, smaller than 1200 × 630 both ways, with Never enlarge on by default.
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
    expect(await settledJobs(page, 1)).toEqual(['done'])
    const note = page.locator('.job .unmet-size')
    expect(await note.textContent()).toContain('The result is 600 × 450, not 1,200 × 630')
    // Bands of the colour chosen, out to 1200 × 630's shape, the picture itself not enlarged.
    await note.getByRole('button', { name: /Add bands/ }).click()
    await page.waitForSelector('.job .unmet-size', { state: 'detached' })
    const padded = await resultOf(page)
    const image = await decode(padded.bytes)
    expect([image.width, image.height]).toEqual([857, 450])
    expect(near(await pixel(padded.bytes, 5, 225), [255, 255, 255], 8)).toBe(true)
    expect(near(await pixel(padded.bytes, 851, 225), [255, 255, 255], 8)).toBe(true)
    // Or the whole size, enlarged. The list is empty before the file is added again, so the
    // wait below cannot see the cleared row, still done, as the new one.
    await page.click('[data-clear]')
    await page.waitForSelector('.job', { state: 'detached' })
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
    expect(await settledJobs(page, 1)).toEqual(['done'])
    await note.getByRole('button', { name: 'Enlarge it to 1,200 × 630' }).click()
    await page.waitForSelector('.job .unmet-size', { state: 'detached' })
    const enlarged = await decode((await resultOf(page)).bytes)
    expect([enlarged.width, enlarged.height]).toEqual([1200, 630])
    await page.close()
  }, 60_000)

  test('a 2× result is named name@2x, one by one and in the ZIP, and 3× name@3x', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'resize')
    await page.fill('#width', '200')
    await page.locator('input[name="dpr"][value="2"]').check()
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
    const result = await resultOf(page)
    expect(result.name).toBe('photo-exif-orientation-6@2x.jpg')
    expect((await decode(result.bytes)).width).toBe(400)
    expect(await page.textContent('.job-name')).toBe('photo-exif-orientation-6@2x.jpg')
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    expect(readZip(zip.bytes).map((entry) => entry.name)).toEqual(['photo-exif-orientation-6@2x.jpg'])
    await page.locator('input[name="dpr"][value="3"]').check()
    await page.click('.rerun button')
    expect(await settledJobs(page, 1)).toEqual(['done'])
    expect(await page.textContent('.job-name')).toBe('photo-exif-orientation-6@3x.jpg')
    await page.close()
  }, 60_000)

  test('a transparent PNG to JPEG takes the background colour chosen, where it was transparent only', async () => {
    const png = join(scratch, 'badge.png')
    await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: { create: { width: 32, height: 32, channels: 4, background: '#0000ff' } },
          left: 16,
          top: 16,
        },
      ])
      .png()
      .toFile(png)
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'convert')
    await page.check('input[name="convert-format"][value="jpeg"]')
    await page.fill('#background', '#ff0000')
    await page.setInputFiles('input[data-files]', png)
    const result = await resultOf(page)
    expect(result.name).toBe('badge.jpg')
    const image = await decode(result.bytes)
    expect([image.format, image.width, image.height, image.metadata.channels]).toEqual(['jpeg', 64, 64, 3])
    expect(near(await pixel(result.bytes, 2, 2), [255, 0, 0], 16)).toBe(true)
    expect(near(await pixel(result.bytes, 32, 32), [0, 0, 255], 16)).toBe(true)
    await page.close()
  }, 60_000)

  test('to ICO with the sizes chosen: one square picture per size, as ImageMagick reads the icon', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'convert')
    await page.check('input[name="convert-format"][value="ico"]')
    await page.getByLabel('48 × 48').uncheck()
    await page.getByLabel('128 × 128').check()
    await page.setInputFiles('input[data-files]', PHOTO)
    const result = await resultOf(page)
    expect(result.name).toEndWith('.ico')
    const ico = join(scratch, 'converted.ico')
    await Bun.write(ico, result.bytes)
    const identify = Bun.spawnSync(['identify', '-format', '%wx%h\n', ico])
    expect(identify.stdout.toString().trim().split('\n')).toEqual(['16x16', '32x32', '128x128'])
    await page.close()
  }, 60_000)

  test('an animated GIF to WebP stays animated: every frame, the same pictures', async () => {
    const gif = join(FIXTURES, 'gif-animated-10frames.gif')
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'convert')
    await page.check('input[name="convert-format"][value="webp"]')
    expect(await page.textContent('.tool-settings')).toContain('Animated images keep every frame in WebP.')
    await page.setInputFiles('input[data-files]', gif)
    const result = await resultOf(page)
    const source = await decode(await Bun.file(gif).bytes())
    const image = await decode(result.bytes)
    expect([image.format, image.pages, image.width, image.height]).toEqual([
      'webp',
      source.pages,
      source.width,
      source.height,
    ])
    expect(image.pages).toBe(10)
    const first = async (bytes: Uint8Array) => sharp(bytes, { page: 0 }).png().toBuffer()
    const [x, y] = [Math.floor(source.width / 2), Math.floor(source.height / 2)]
    expect(
      near(
        await pixel(await first(result.bytes), x, y),
        await pixel(await first(await Bun.file(gif).bytes()), x, y),
        24,
      ),
    ).toBe(true)
    await page.close()
  }, 60_000)
})

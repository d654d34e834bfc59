import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import sharp, { type OutputInfo, type Sharp } from 'sharp'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { downloadOf, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the Edit tool in a real browser')

/** Stored 450 × 600 with EXIF orientation 6: upright it is 600 × 450, and the crop is upright. */
const PHOTO = join(FIXTURES, 'photo-exif-orientation-6.jpg')

async function rgbaOf(bytes: Uint8Array | Buffer) {
  return sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
}

/** The RGB at (x, y) of raw pixels. */
function pixel(raw: { data: Buffer; info: OutputInfo }, x: number, y: number): number[] {
  const at = (y * raw.info.width + x) * raw.info.channels
  return [...raw.data.subarray(at, at + 3)]
}

/** The mean RGB of the 9 × 9 pixels around (x, y). */
function patch(raw: { data: Buffer; info: OutputInfo }, x: number, y: number): number[] {
  const sums = [0, 0, 0]
  for (let dy = -4; dy <= 4; dy++)
    for (let dx = -4; dx <= 4; dx++) pixel(raw, x + dx, y + dy).forEach((value, i) => (sums[i]! += value))
  return sums.map((sum) => sum / 81)
}

/** The mean difference of two images of one size, per channel value. */
function meanDifference(a: { data: Buffer }, b: { data: Buffer }): number {
  let sum = 0
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += Math.abs(a.data[i]! - b.data[i]!)
  return sum / ((a.data.length / 4) * 3)
}

const distance = (a: number[], b: number[]) => Math.max(...a.map((value, i) => Math.abs(value - b[i]!)))

async function made(page: Page): Promise<Uint8Array> {
  await page.click('[data-generate]')
  expect(await settledJobs(page, 1)).toEqual(['done'])
  return (await downloadOf(page, () => page.locator('.job-actions button').last().click())).bytes
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the Edit tool in a real browser', () => {
  const suite = serverAndBrowser()
  let scratch: string
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'imgapi-tools-edit-'))
  })
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  test('a crop made with the keyboard only, a quarter turn right and upside down: the pixels sharp makes from the same steps', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'edit')
    await page.setInputFiles('input[data-files]', PHOTO)
    const box = page.locator('.crop-box')
    await box.focus()
    // One step is 1% of the longer side: 6 px. Shift+arrow moves the right or bottom edge.
    for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+ArrowLeft')
    for (let i = 0; i < 10; i++) await page.keyboard.press('Shift+ArrowUp')
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
    const fields = ['left', 'top', 'width', 'height'].map((name) => page.locator(`#crop-${name}`))
    expect(await Promise.all(fields.map((field) => field.inputValue()))).toEqual(['30', '18', '480', '390'])
    expect(await box.getAttribute('aria-label')).toContain('480 × 390')
    await page.getByRole('button', { name: 'Rotate right' }).click()
    await page.getByRole('button', { name: 'Upside down' }).click()
    await page.selectOption('#format', 'png')
    const result = await rgbaOf(await made(page))

    // sharp's own steps, one pass each and lossless between them: orient, extract, mirror upside
    // down, then a quarter turn clockwise.
    const step = (input: Buffer | string, edit: (image: Sharp) => Sharp) =>
      edit(sharp(input)).png().toBuffer()
    const upright = await step(PHOTO, (image) => image.rotate())
    const cropped = await step(upright, (image) =>
      image.extract({ left: 30, top: 18, width: 480, height: 390 }),
    )
    const flipped = await step(cropped, (image) => image.flip())
    const expected = await rgbaOf(await step(flipped, (image) => image.rotate(90)))
    const wrongWay = await rgbaOf(await step(flipped, (image) => image.rotate(-90)))

    expect([result.info.width, result.info.height]).toEqual([390, 480])
    expect([expected.info.width, expected.info.height]).toEqual([390, 480])
    // Corners and the middle, each a 9 × 9 patch (the JPEG's decoders differ by a few levels).
    const samples: [number, number][] = [
      [4, 4],
      [385, 4],
      [4, 475],
      [385, 475],
      [195, 240],
      [100, 350],
    ]
    const off = samples.filter(([x, y]) => distance(patch(result, x, y), patch(expected, x, y)) > 8)
    expect(off).toEqual([])
    expect(meanDifference(result, expected)).toBeLessThan(4)
    // Turned the other way, the same picture is far off: the comparison can tell.
    expect(meanDifference(result, wrongWay)).toBeGreaterThan(20)
    await page.close()
  }, 120_000)

  test('crop numbers typed in any order keep what was typed: the other numbers give way', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'edit')
    await page.setInputFiles('input[data-files]', PHOTO)
    const fields = ['left', 'top', 'width', 'height'].map((name) => page.locator(`#crop-${name}`))
    const values = () => Promise.all(fields.map((field) => field.inputValue()))
    const type = async (name: string, value: string) => {
      const field = page.locator(`#crop-${name}`)
      await field.selectText()
      await field.pressSequentially(value)
    }
    await page.waitForSelector('.crop-box')
    expect(await values()).toEqual(['0', '0', '600', '450'])
    // In reading order while the box is the whole image: the width and height make room.
    await type('left', '400')
    await type('top', '300')
    expect(await values()).toEqual(['400', '300', '200', '150'])
    // A size that does not fit where the box is moves the box back instead.
    await type('width', '500')
    expect(await values()).toEqual(['100', '300', '500', '150'])
    await type('height', '420')
    expect(await values()).toEqual(['100', '30', '500', '420'])
    // With a ratio the other side follows what was typed.
    await page.locator('input[name="ratio"][value="1:1"]').check({ force: true })
    await type('left', '500')
    const [left, , width, height] = await values()
    expect([left, width, height]).toEqual(['500', '100', '100'])
    await page.close()
  }, 60_000)

  test('a watermark from Persian text: the browser draws it into a PNG, sends it as `overlay`, and it appears where it was put', async () => {
    const grey = join(scratch, 'grey.png')
    await sharp({ create: { width: 800, height: 500, channels: 3, background: '#404040' } })
      .png()
      .toFile(grey)
    const page = await suite.browser.context.newPage()
    const sent: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/compress'))
        sent.push(request.headers()['content-type'] ?? '')
    })
    await openTool(page, suite.api.url, 'edit', 'fa')
    await page.setInputFiles('input[data-files]', grey)
    await page.locator('input[name="watermark"][value="text"]').check()
    await page.fill('#watermark-text', 'سلام دنیا')
    // The drawn text can be saved as the PNG the curl command sends.
    const overlay = await downloadOf(page, () => page.locator('.edit-actions button').nth(1).click())
    const drawn = await rgbaOf(overlay.bytes)
    expect(overlay.name).toBe('watermark.png')
    expect(drawn.info.width).toBeGreaterThan(drawn.info.height)
    let opaque = 0
    for (let i = 3; i < drawn.data.length; i += 4) if (drawn.data[i]! > 200) opaque++
    expect(opaque).toBeGreaterThan(1000)

    const result = await rgbaOf(await made(page))
    expect([result.info.width, result.info.height]).toEqual([800, 500])
    expect(sent.at(-1)).toStartWith('multipart/form-data')
    // Bottom right, a quarter of the width (200 px), 16 px from the edges; white text at 80%.
    const inside = { left: 800 - 16 - 200, right: 800 - 16, top: 500 - 16 - 120, bottom: 500 - 16 }
    let light = 0
    let elsewhere = 0
    for (let y = 0; y < 500; y += 2)
      for (let x = 0; x < 800; x += 2) {
        const bright = pixel(result, x, y)[0]! > 150
        const within = x >= inside.left && x < inside.right && y >= inside.top && y < inside.bottom
        if (bright && within) light++
        if (bright && !within) elsewhere++
      }
    expect(light).toBeGreaterThan(100)
    expect(elsewhere).toBe(0)
    await page.close()
  }, 120_000)
})

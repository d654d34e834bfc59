import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decode as decodeBlurHash } from 'blurhash'
import sharp from 'sharp'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BINARY } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { readZip } from '../helpers/zip.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { downloadOf, largePhoto, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the generators in a real browser')

const PHOTO = await largePhoto('photo-forest-path-4mp.jpg')
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
  let scratch: string
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'imgapi-tools-generate-'))
  })
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

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

  /** The favicon pack of an image on the background #123456, as the ZIP's entries by name. */
  async function pack(image: string, base?: string) {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'favicon')
    await page.setInputFiles('input[data-files]', image)
    await page.fill('#favicon-background', '#123456')
    if (base) await page.fill('#icon-base', base)
    await page.click('[data-generate]')
    expect(await settledJobs(page, 6)).toEqual(Array(6).fill('done'))
    await page.waitForSelector('[data-download-all]')
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    return { page, entries: new Map(readZip(zip.bytes).map((entry) => [entry.name, entry.bytes])) }
  }

  test('the favicon pack: an ICO of 16, 32 and 48 (as ImageMagick reads it), PNGs at their sizes, a padded maskable icon, the manifest and the <link> lines, in one ZIP', async () => {
    const { page, entries } = await pack(PHOTO, '/static/icons/')
    expect([...entries.keys()].sort()).toEqual(
      [
        'favicon.ico',
        'favicon-32x32.png',
        'apple-touch-icon.png',
        'icon-192.png',
        'icon-512.png',
        'icon-maskable-512.png',
        'site.webmanifest',
        'favicon.html',
      ].sort(),
    )
    const ico = join(scratch, 'favicon.ico')
    await Bun.write(ico, entries.get('favicon.ico')!)
    // An icon directory (reserved 0, type 1), each entry a PNG, as ImageMagick reads them.
    expect([...entries.get('favicon.ico')!.subarray(0, 4)]).toEqual([0, 0, 1, 0])
    const identify = Bun.spawnSync(['identify', '-format', '%wx%h\n', ico])
    expect(identify.stderr.toString()).toBe('')
    expect(identify.stdout.toString().trim().split('\n').sort()).toEqual(['16x16', '32x32', '48x48'])
    for (const [name, side] of [
      ['favicon-32x32.png', 32],
      ['apple-touch-icon.png', 180],
      ['icon-192.png', 192],
      ['icon-512.png', 512],
      ['icon-maskable-512.png', 512],
    ] as const) {
      const image = await decode(entries.get(name)!)
      expect([name, image.format, image.width, image.height]).toEqual([name, 'png', side, side])
    }
    // The maskable icon keeps its picture inside the safe circle: its border is the background.
    const maskable = await sharp(entries.get('icon-maskable-512.png')!)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const at = (x: number, y: number) => [...maskable.data.subarray((y * 512 + x) * 3, (y * 512 + x) * 3 + 3)]
    for (const [x, y] of [
      [2, 2],
      [509, 2],
      [2, 509],
      [509, 509],
      [256, 20],
    ])
      expect(at(x!, y!)).toEqual([0x12, 0x34, 0x56])
    expect(at(256, 256)).not.toEqual([0x12, 0x34, 0x56])
    const manifest = JSON.parse(new TextDecoder().decode(entries.get('site.webmanifest')!))
    expect(manifest).toMatchObject({
      name: BASE,
      short_name: BASE,
      start_url: '/static/icons/',
      background_color: '#123456',
      icons: [
        { src: '/static/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/static/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/static/icons/icon-maskable-512.png', sizes: '512x512', purpose: 'maskable' },
      ],
    })
    const links = (await page.textContent('.tool-results .code-block code'))!
    expect(new TextDecoder().decode(entries.get('favicon.html')!)).toBe(`${links}\n`)
    expect(links).toContain('<link rel="icon" href="/static/icons/favicon.ico" sizes="16x16 32x32 48x48">')
    expect(links).toContain('<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">')
    expect(links).toContain('<link rel="manifest" href="/static/icons/site.webmanifest">')
    await page.close()
  }, 180_000)

  test('the favicon pack from a transparent image: the Apple and maskable icons flattened onto the background, the others transparent', async () => {
    // A red disc on transparency, as logos come.
    const logo = join(scratch, 'logo.png')
    await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="90" fill="#ff0000"/></svg>',
      ),
    )
      .png()
      .toFile(logo)
    const { page, entries } = await pack(logo)
    const pixels = async (name: string) => {
      const { data, info } = await sharp(entries.get(name)!)
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      let transparent = 0
      for (let i = 3; i < data.length; i += 4) if (data[i]! < 255) transparent++
      const at = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
      ]
      return {
        side: info.width,
        transparent,
        corner: at(1, 1),
        centre: at(info.width >> 1, info.height >> 1),
      }
    }
    // What iOS and Android's masks show: no transparent pixel, the background around the picture.
    for (const name of ['apple-touch-icon.png', 'icon-maskable-512.png']) {
      const icon = await pixels(name)
      expect({ name, transparent: icon.transparent, corner: icon.corner }).toEqual({
        name,
        transparent: 0,
        corner: [0x12, 0x34, 0x56, 255],
      })
      expect(icon.centre).toEqual([255, 0, 0, 255])
    }
    expect((await pixels('apple-touch-icon.png')).side).toBe(180)
    // Browsers draw the others on their own background: they keep the transparency.
    for (const name of ['favicon-32x32.png', 'icon-192.png', 'icon-512.png']) {
      const icon = await pixels(name)
      expect({ name, corner: icon.corner[3] }).toEqual({ name, corner: 0 })
      expect(icon.transparent).toBeGreaterThan(0)
    }
    await page.close()
  }, 120_000)
})

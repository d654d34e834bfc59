import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { BINARY } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { readZip } from '../helpers/zip.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { downloadOf, largePhoto, openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('several outputs from one upload in a real browser')

const PHOTO = await largePhoto('photo-forest-path-4mp.jpg')
const BASE = PHOTO.split('/')
  .pop()!
  .replace(/\.jpg$/, '')
const SOURCE = await decode(await Bun.file(PHOTO).bytes())

interface Sent {
  readonly accept: string
  status?: number
  /** The answer's variants (JSON), each with its options' outcome: a format and a size, or a problem. */
  variants: { outputFormat?: string; width?: number }[]
}

/**
 * Each POST /api/compress the page makes, with its Accept header and, once answered, its variants.
 * The page can show a job done before this process has read the answer's body, so `read()` waits
 * for every answer seen so far.
 */
function compressRequests(page: Page): Sent[] & { read(): Promise<Sent[]> } {
  const seen: Sent[] = []
  const reading: Promise<void>[] = []
  page.on('request', (request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/compress') return
    const sent: Sent = { accept: request.headers()['accept'] ?? '', variants: [] }
    seen.push(sent)
    reading.push(
      request.response().then(async (response) => {
        sent.status = response?.status()
        if (response?.headers()['content-type']?.startsWith('application/json'))
          sent.variants = ((await response.json()) as Sent).variants
      }),
    )
  })
  return Object.assign(seen, { read: () => Promise.all(reading).then(() => seen) })
}

/** Asks the responsive tool for 320 and 640 pixels in AVIF, WebP and JPEG: six files. */
async function askForSix(page: Page, base: string) {
  await openTool(page, base, 'responsive')
  for (const width of ['480', '800', '1,280', '1,920'])
    await page.getByLabel(width, { exact: true }).uncheck()
  for (const width of ['320', '640']) await page.getByLabel(width, { exact: true }).check()
  await page.setInputFiles('input[data-files]', PHOTO)
  await page.click('[data-generate]')
}

/** The responsive set of six, as the ZIP's images. */
async function responsiveSet(page: Page, base: string) {
  await askForSix(page, base)
  const statuses = await settledJobs(page, 6)
  await page.waitForSelector('[data-download-all]')
  const zip = await downloadOf(page, () => page.click('[data-download-all]'))
  return { statuses, images: readZip(zip.bytes).filter((entry) => entry.name !== 'picture.html') }
}

/** Converts the photo to WebP, with AVIF and PNG ticked too; the cards' statuses once settled. */
async function convertToThree(page: Page, base: string): Promise<string[]> {
  await openTool(page, base, 'convert')
  await page.check('input[name="convert-format"][value="webp"]')
  for (const format of ['avif', 'png']) await page.check(`input[name="convert-also"][value="${format}"]`)
  await page.setInputFiles('input[data-files]', PHOTO)
  return settledJobs(page, 3)
}

/** Each image's name, format (sharp's name) and size. */
const facts = (images: readonly { name: string; bytes: Uint8Array }[]) =>
  Promise.all(
    images.map(async (entry) => {
      const image = await decode(entry.bytes)
      return [entry.name, image.format, image.width, image.height]
    }),
  )

const heightAt = (width: number) => Math.round((SOURCE.height * width) / SOURCE.width)

const RESPONSIVE = ['avif', 'webp', 'jpg'].flatMap((ext) =>
  [320, 640].map((width) => [
    `${BASE}-${width}.${ext}`,
    { jpg: 'jpeg', avif: 'heif' }[ext] ?? ext,
    width,
    heightAt(width),
  ]),
)

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('several outputs from one upload', () => {
  const suite = serverAndBrowser()

  test('the responsive set: one POST /api/compress with six variants, six images of the widths and formats asked', async () => {
    const page = await suite.browser.context.newPage()
    const requests = compressRequests(page)
    const { statuses, images } = await responsiveSet(page, suite.api.url)
    expect(statuses).toEqual(Array(6).fill('done'))
    await requests.read()
    expect(requests.length).toBe(1)
    expect(requests[0]!.accept).toBe('application/json')
    expect(requests[0]!.variants).toHaveLength(6)
    expect(await facts(images)).toEqual(RESPONSIVE)
    await page.close()
  }, 180_000)

  test('the favicon pack: one POST /api/compress for all six files, each at its size and in its format', async () => {
    const page = await suite.browser.context.newPage()
    const requests = compressRequests(page)
    await openTool(page, suite.api.url, 'favicon')
    await page.setInputFiles('input[data-files]', PHOTO)
    await page.click('[data-generate]')
    expect(await settledJobs(page, 6)).toEqual(Array(6).fill('done'))
    await page.waitForSelector('[data-download-all]')
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    const entries = readZip(zip.bytes)
    const images = entries.filter((entry) => entry.name.endsWith('.png'))
    await requests.read()
    expect(requests.length).toBe(1)
    expect(requests[0]!.variants).toHaveLength(6)
    // An icon directory (reserved 0, type 1) of three images: 16, 32 and 48.
    const ico = entries.find((entry) => entry.name === 'favicon.ico')!.bytes
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 3, 0])
    const sides: Record<string, number> = {
      'favicon-32x32.png': 32,
      'apple-touch-icon.png': 180,
      'icon-192.png': 192,
      'icon-512.png': 512,
      'icon-maskable-512.png': 512,
    }
    expect((await facts(images)).sort()).toEqual(
      Object.entries(sides)
        .map(([name, side]) => [name, 'png', side, side])
        .sort(),
    )
    await page.close()
  }, 180_000)

  test('a variant the server could not make fails on its own card, with its problem; the others are shown', async () => {
    const page = await suite.browser.context.newPage()
    // The server's answer to the set, its second variant listed as one the server could not make
    // (the page's request is not forwarded: a browser's multipart body with a file is not exposed).
    const form = new FormData()
    form.append('file', new Blob([await Bun.file(PHOTO).bytes()]), `${BASE}.jpg`)
    const widths = [320, 640]
    const formats = ['avif', 'webp', 'jpeg']
    form.append(
      'variants',
      JSON.stringify(formats.flatMap((format) => widths.map((width) => ({ format, width })))),
    )
    const answer = await fetch(`${suite.api.url}/api/compress`, {
      method: 'POST',
      body: form,
      headers: { accept: 'application/json' },
    })
    const body = (await answer.json()) as { variants: Record<string, unknown>[] }
    body.variants[1] = {
      index: 1,
      problem: {
        code: 'TARGET_UNREACHABLE',
        title: 'The size asked for cannot be reached',
        status: 422,
        detail: 'variants[1]: no quality reaches 10 bytes',
      },
    }
    await page.route('**/api/compress', (route) => route.fulfill({ json: body }))
    await askForSix(page, suite.api.url)
    expect(await settledJobs(page, 6)).toEqual(['done', 'failed', 'done', 'done', 'done', 'done'])
    expect(await page.locator('.job.status-failed').textContent()).toContain('cannot be reached')
    const markup = await page.textContent('.tool-results .code-block code')
    expect(markup).toContain(`${BASE}-320.avif 320w`)
    expect(markup).not.toContain(`${BASE}-640.avif`)
    await page.close()
  }, 180_000)

  test('Convert to several formats: one POST /api/compress per image, one result per format', async () => {
    const page = await suite.browser.context.newPage()
    const requests = compressRequests(page)
    expect(await convertToThree(page, suite.api.url)).toEqual(['done', 'done', 'done'])
    await requests.read()
    // The chosen format first, then the others in the server's order.
    expect(requests.map((r) => r.variants.map((v) => v.outputFormat))).toEqual([['webp', 'png', 'avif']])
    const names = await page.locator('.job-name').allTextContents()
    expect(names).toEqual([`${BASE}.webp`, `${BASE}.png`, `${BASE}.avif`])
    const zip = await downloadOf(page, () => page.click('[data-download-all]'))
    expect((await facts(readZip(zip.bytes))).sort()).toEqual(
      [
        [`${BASE}.webp`, 'webp', SOURCE.width, SOURCE.height],
        [`${BASE}.avif`, 'heif', SOURCE.width, SOURCE.height],
        [`${BASE}.png`, 'png', SOURCE.width, SOURCE.height],
      ].sort(),
    )
    await page.close()
  }, 180_000)
})

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('more outputs than the server takes in one request', () => {
  // Four variants a request, and one request a second per client: the second is refused first.
  const suite = serverAndBrowser({
    maxVariants: 4,
    rateLimit: 1,
    rateWindowMs: 1000,
    rateBurst: 1,
    workers: 2,
  })

  test('the responsive set of six with maxVariants 4: requests of four and two, a 429 waited out as one, all six images', async () => {
    const page = await suite.browser.context.newPage()
    const requests = compressRequests(page)
    const { statuses, images } = await responsiveSet(page, suite.api.url)
    expect(statuses).toEqual(Array(6).fill('done'))
    await requests.read()
    const answered = requests.filter((r) => r.status === 200)
    expect(answered.map((r) => r.variants.length).sort()).toEqual([2, 4])
    expect(requests.filter((r) => r.status !== 200).map((r) => r.status)).toContain(429)
    expect(await facts(images)).toEqual(RESPONSIVE)
    await page.close()
  }, 180_000)
})

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))(
  'outputs too large together, each small enough alone',
  () => {
    // The photo is at the server's output limit: three outputs of its size pass twice it, the
    // most the variants of one request may make together.
    const suite = serverAndBrowser({ maxOutputPixels: SOURCE.width * SOURCE.height })

    test('Convert to three formats refused as too large together is sent again in halves, and all three are made', async () => {
      const page = await suite.browser.context.newPage()
      const requests = compressRequests(page)
      expect(await convertToThree(page, suite.api.url)).toEqual(['done', 'done', 'done'])
      await requests.read()
      // Refused whole (422), then two together and the third alone (an image, not JSON).
      expect(requests.map((r) => [r.status, r.variants.length])).toEqual([
        [422, 0],
        [200, 2],
        [200, 0],
      ])
      await page.close()
    }, 180_000)
  },
)

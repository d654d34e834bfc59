import { afterAll, beforeAll } from 'bun:test'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Download, Page } from 'playwright-core'
import sharp from 'sharp'
import type { Config } from '../../src/config.ts'
import { TOOL_PAGES, type ToolPage } from '../../src/tools/pages.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { CORPUS, FIXTURES, HAS_CORPUS } from '../helpers/paths.ts'
import { launchBrowser, type Browser } from './chromium.ts'

/** What the web tools' browser tests share: opening a tool, giving it files, reading downloads. */
export const TOOL_PAGE_NAMES = Object.keys(TOOL_PAGES) as ToolPage[]

export async function openTool(page: Page, base: string, name: ToolPage, language = 'en'): Promise<void> {
  await page.goto(`${base}${TOOL_PAGES[name].path}?lang=${language}`)
  // The script has run once the drop zone's file input exists (the home and tools draw it).
  if (name !== 'generate') await page.waitForSelector('input[data-files]', { state: 'attached' })
}

/** Each row's status, as the list shows it now. */
function jobStatuses(page: Page): Promise<string[]> {
  return page
    .locator('.job')
    .evaluateAll((rows) => rows.map((row) => /status-(\w+)/.exec(row.className)?.[1] ?? ''))
}

/** Waits until the batch has no file left to finish, and returns each row's status class. */
export async function settledJobs(page: Page, count: number, timeout = 120_000): Promise<string[]> {
  await page.waitForFunction(
    (expected) => {
      const rows = [...document.querySelectorAll('.job')]
      return (
        rows.length === expected && rows.every((row) => /status-(done|failed|cancelled)/.test(row.className))
      )
    },
    count,
    { timeout },
  )
  const statuses = await jobStatuses(page)
  // A row that failed where a test expected it done says why in the log, since the list of
  // statuses the test compares does not.
  if (statuses.includes('failed')) {
    const texts = await page.locator('.job.status-failed').allTextContents()
    console.error(`settled with failed rows: ${texts.map((text) => text.trim()).join(' | ')}`)
  }
  return statuses
}

/**
 * Waits until the rows' statuses are `expected`, and returns them as they are then (as they were
 * when the wait gave up, so a failing test shows them). For a job put back to work (Retry): its
 * row still reads "failed" until the list's next frame, so `settledJobs` would see it settled.
 */
export async function jobsBecome(
  page: Page,
  expected: readonly string[],
  timeout = 45_000,
): Promise<string[]> {
  const wanted = expected.map((status) => `job status-${status}`)
  await page
    .waitForFunction(
      (classes) => {
        const rows = [...document.querySelectorAll('.job')]
        return rows.length === classes.length && rows.every((row, i) => row.className.startsWith(classes[i]!))
      },
      wanted,
      { timeout },
    )
    .catch(() => undefined)
  return jobStatuses(page)
}

export async function downloadOf(
  page: Page,
  click: () => Promise<unknown>,
): Promise<{ name: string; bytes: Uint8Array }> {
  const downloaded: Promise<Download> = page.waitForEvent('download', { timeout: 60_000 })
  await click()
  const download = await downloaded
  return { name: download.suggestedFilename(), bytes: await Bun.file((await download.path())!).bytes() }
}

/** One server on a socket and one browser for a test file: up before its tests, down after. */
export function serverAndBrowser(
  settings: Partial<Config> = {},
  browserOptions: Parameters<typeof launchBrowser>[0] = {},
): { readonly api: Api; readonly browser: Browser } {
  const handles = {} as { api: Api; browser: Browser }
  beforeAll(async () => {
    handles.api = await startApi(settings, { socket: true })
    handles.browser = await launchBrowser(browserOptions)
  }, 60_000)
  afterAll(async () => {
    await handles.browser?.close()
    await handles.api?.stop()
  })
  return handles
}

/**
 * A photo of at least 1600 px: a corpus photo, or without the corpus the fixture photo enlarged
 * (600 × 450 is smaller than the sizes these tools are asked for, and an image is not enlarged).
 */
export async function largePhoto(corpusName: string): Promise<string> {
  if (HAS_CORPUS) return join(CORPUS, corpusName)
  const path = join(tmpdir(), `imgapi-tools-photo-${process.pid}.jpg`)
  if (!existsSync(path))
    await sharp(join(FIXTURES, 'photo-exif-orientation-6.jpg'))
      .rotate()
      .resize(1600)
      .jpeg({ quality: 90 })
      .toFile(path)
  return path
}

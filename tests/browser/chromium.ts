import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

/**
 * Debian's Chromium driven by playwright-core, started as this machine allows: headless, no
 * sandbox, nothing that talks to the network by itself, and a fresh profile every time.
 */
export const CHROMIUM = '/usr/bin/chromium'
export const HAS_CHROMIUM = existsSync(CHROMIUM)
const IN_CI = process.env.CI === 'true'

/** Says once why the browser suites did not run; in CI a missing browser is a failure, not a skip. */
export function announceBrowserSkip(suite: string): void {
  if (HAS_CHROMIUM) return
  if (IN_CI) throw new Error(`${suite}: ${CHROMIUM} is missing; .ci/run installs the chromium package`)
  console.warn(`[skipped] ${suite}: ${CHROMIUM} is not installed (apt-get install chromium)`)
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Browser {
  readonly context: BrowserContext
  close(): Promise<void>
}

export async function launchBrowser(
  options: { width?: number; height?: number; locale?: string; bypassCsp?: boolean } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'imgapi-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    locale: options.locale ?? 'en-US',
    acceptDownloads: true,
    bypassCSP: options.bypassCsp ?? false,
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** What a page did that a test may object to: console errors, uncaught errors, other origins. */
export interface PageWatch {
  readonly consoleErrors: string[]
  readonly external: string[]
}

export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { consoleErrors: [], external: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => watch.consoleErrors.push(error.message))
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))
      watch.external.push(url)
  })
  return watch
}

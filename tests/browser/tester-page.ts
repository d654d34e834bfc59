import type { Page } from 'playwright-core'
import type { Api } from '../helpers/api.ts'

/** The tester's file input: the tools' drop zone keeps it in the page, hidden behind its buttons. */
export const TESTER_FILE = 'form[data-tester] input[data-files]'

/** Opens the tester and waits until its script has drawn the form and read this server's formats. */
export async function openTester(page: Page, api: Api): Promise<void> {
  await page.goto(`${api.url}/docs/tester`)
  await page.waitForSelector('form[data-tester][data-ready="true"]')
}

/** Sends the form and waits for the answer's status line. */
export async function send(page: Page): Promise<void> {
  await page.click('[data-send]')
  await page.waitForSelector('[data-result]:not([hidden]) .status-line')
}

/** Both pictures of the comparison, each loaded (or converted by the server) in its own time. */
export async function comparedPictures(page: Page): Promise<number> {
  await page.waitForFunction(() => document.querySelectorAll('[data-result] .compare img').length === 2)
  return page.locator('[data-result] .compare img').count()
}

/** The comparison's facts, as term → description: Before, After, Change. */
export function comparisonFacts(page: Page): Promise<Record<string, string>> {
  return page.$$eval('[data-result] .compare-facts dt', (terms) =>
    Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''])),
  )
}

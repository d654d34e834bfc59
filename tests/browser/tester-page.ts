import type { Page } from 'playwright-core'
import type { Api } from '../helpers/api.ts'

/** Opens the tester and waits until its script has bound the form. */
export async function openTester(page: Page, api: Api): Promise<void> {
  await page.goto(`${api.url}/docs/tester`)
  await page.waitForSelector('form[data-tester][data-ready="true"]')
}

/** Sends the form and waits for the answer's status line. */
export async function send(page: Page): Promise<void> {
  await page.click('[data-send]')
  await page.waitForSelector('[data-result]:not([hidden]) .status-line')
}

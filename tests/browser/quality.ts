import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { LANGUAGES } from '../../src/i18n.ts'
import { ROOT } from '../helpers/paths.ts'

/** What the docs' and the tools' quality suites share: the budget, axe, the screenshots. */

/** The first view's budget: HTML, script, styles and the language's strings, as transferred. */
export const FIRST_VIEW_BUDGET_BYTES = 100 * 1024
/** Where the screenshots go (the README names this folder). */
export const SCREENSHOTS = join(ROOT, 'dist/screenshots')
export const SCREENSHOT_LANGUAGES = LANGUAGES.filter((code) => ['en', 'ja', 'fa'].includes(code))
const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: readonly { target: readonly string[] }[]
}

/** The serious and critical violations axe-core finds on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE })
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
    ).axe
    return (await axe.run(document)).violations
  })) as AxeViolation[]
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)
}

/** Bytes a fresh page transfers until the network is idle: bodies and headers, as sent. */
export async function firstViewBytes(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage()
  let bytes = 0
  page.on('requestfinished', async (request) => {
    const sizes = await request.sizes()
    bytes += sizes.responseBodySize + sizes.responseHeadersSize
  })
  await page.goto(url)
  await page.waitForLoadState('networkidle')
  await page.close()
  return bytes
}

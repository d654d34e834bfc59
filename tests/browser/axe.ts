import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { ROOT } from '../helpers/paths.ts'

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')

/**
 * Duplicate ids make in-page links and aria-labelledby ambiguous. axe 4 ships these rules off
 * (deprecated) or as "needs review", so they are switched on here and any finding counts.
 */
const DUPLICATE_ID_RULES = ['duplicate-id', 'duplicate-id-active', 'duplicate-id-aria']

interface AxeResult {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: readonly { target: readonly string[] }[]
}

/** What axe finds serious or critical on the page as it is, and every duplicate id. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE })
  const { violations, incomplete } = (await page.evaluate(async (duplicateRules) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: unknown,
          ) => Promise<{ violations: unknown[]; incomplete: unknown[] }>
        }
      }
    ).axe
    const rules = Object.fromEntries(duplicateRules.map((id) => [id, { enabled: true }]))
    return axe.run(document, { rules })
  }, DUPLICATE_ID_RULES)) as { violations: AxeResult[]; incomplete: AxeResult[] }
  const isDuplicateId = (result: AxeResult) => DUPLICATE_ID_RULES.includes(result.id)
  return [
    ...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || isDuplicateId(v)),
    ...incomplete.filter(isDuplicateId),
  ].map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)
}

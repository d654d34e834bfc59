import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { LANGUAGES } from '../../src/i18n.ts'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { browserSession } from './session.ts'

announceBrowserSkip('typography in a real browser')

/**
 * Narrow and wide letters of the same count, in each element that shows code: equal widths
 * mean the browser drew them in a monospace font, whatever the stylesheet's selectors say.
 */
const PROBE = ['code', 'kbd', 'samp'].map((tag) => `<${tag}>iiiiiiiiii</${tag}> <${tag}>MMMMMMMMMM</${tag}>`)

async function monospaceWidths(page: Page): Promise<Record<string, [number, number]>> {
  return page.evaluate((probe) => {
    const main = document.querySelector('main')!
    const line = document.createElement('p')
    line.innerHTML = probe.join(' ')
    const pre = document.createElement('pre')
    pre.innerHTML = '<span>iiiiiiiiii</span>\n<span>MMMMMMMMMM</span>'
    main.append(line, pre)
    const widths: Record<string, [number, number]> = {}
    for (const tag of ['code', 'kbd', 'samp']) {
      const [narrow, wide] = [...line.querySelectorAll(tag)].map((el) => el.getBoundingClientRect().width)
      widths[tag] = [Math.round(narrow!), Math.round(wide!)]
    }
    const [narrow, wide] = [...pre.querySelectorAll('span')].map((el) => el.getBoundingClientRect().width)
    widths.pre = [Math.round(narrow!), Math.round(wide!)]
    return widths
  }, PROBE)
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('typography in a real browser', () => {
  const session = browserSession()

  test('code, pre, kbd and samp are drawn in a monospace font in every language, the example code blocks included', async () => {
    const page = await session.browser.context.newPage()
    for (const language of LANGUAGES) {
      await page.goto(`${session.api.url}/docs/examples?lang=${language}`)
      const widths = await monospaceWidths(page)
      for (const [tag, [narrow, wide]] of Object.entries(widths))
        expect({ language, tag, narrow }).toEqual({ language, tag, narrow: wide })
      // The examples' own blocks resolve to the same monospace stack as the probe.
      const families = await page.$$eval('.code-block pre, .code-block code', (elements) => [
        ...new Set(elements.map((el) => getComputedStyle(el).fontFamily)),
      ])
      expect({ language, families: families.map((f) => f.trim().endsWith('monospace')) }).toEqual({
        language,
        families: families.map(() => true),
      })
    }
    await page.close()
  }, 60_000)
})

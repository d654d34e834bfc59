import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { BINARY } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { openTool, serverAndBrowser, settledJobs } from './tools.ts'

announceBrowserSkip('the tools right to left, in Persian')

/** A size as the page writes it in Persian: Persian digits, then a unit. */
const PERSIAN_SIZE = /^[۰-۹٬٫]+ (B|KiB|MiB)$/

/** Where on screen, left to right, each piece of an element's text is drawn. */
function drawnAt(page: Page, selector: string, pieces: readonly string[]): Promise<number[]> {
  return page.locator(selector).evaluate((element, wanted) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    const text: { node: Text; from: number }[] = []
    let whole = ''
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      text.push({ node: node as Text, from: whole.length })
      whole += node.textContent
    }
    return wanted.map((piece) => {
      const at = whole.indexOf(piece)
      const entry = text.findLast((t) => t.from <= at)!
      const range = document.createRange()
      range.setStart(entry.node, at - entry.from)
      range.setEnd(entry.node, at - entry.from + 1)
      return range.getBoundingClientRect().left
    })
  }, pieces)
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the tools right to left, in Persian', () => {
  const suite = serverAndBrowser()

  test('sizes, code and the comparison’s heading keep their order in a right-to-left page', async () => {
    const page = await suite.browser.context.newPage()
    await openTool(page, suite.api.url, 'compress', 'fa')
    await page.waitForSelector('#quality')
    await page.setInputFiles('input[data-files]', join(FIXTURES, 'photo-exif-orientation-6.jpg'))
    expect(await settledJobs(page, 1)).toEqual(['done'])

    // Every size on the card and in the totals is an isolate of its own, number and unit together.
    for (const where of ['.job-sizes', '.totals']) {
      const sizes = await page.locator(`${where} bdi`).allTextContents()
      expect({ where, sizes: sizes.length }).toEqual({ where, sizes: 2 })
      for (const size of sizes) expect(size).toMatch(PERSIAN_SIZE)
      // Before on the reader's right, the arrow pointing left at the result.
      const [before, arrow, after] = await page.locator(`${where} bdi >> nth=0`).evaluate((first) => {
        const second = first.parentElement!.querySelectorAll('bdi')[1]!
        const between = first.nextSibling!
        const range = document.createRange()
        range.selectNodeContents(between)
        return [
          first.getBoundingClientRect(),
          range.getBoundingClientRect(),
          second.getBoundingClientRect(),
        ].map((box) => box.left)
      })
      expect(before!).toBeGreaterThan(arrow!)
      expect(arrow!).toBeGreaterThan(after!)
    }
    expect(await page.textContent('.job-sizes')).toContain('←')

    // The card's first row reads from the right: the file's name first, against the card's
    // right edge (a Latin name in its own direction, placed by the card's), its sizes after it.
    const row = await page.locator('.job-name').evaluate((name) => {
      const range = document.createRange()
      range.selectNodeContents(name)
      const drawn = range.getBoundingClientRect()
      const box = name.getBoundingClientRect()
      const sizes = name.parentElement!.querySelector('.job-sizes')!.getBoundingClientRect()
      return { gapAtRight: Math.round(box.right - drawn.right), nameRightOfSizes: drawn.left > sizes.right }
    })
    expect(row).toEqual({ gapAtRight: 0, nameRightOfSizes: true })

    // Code and identifiers in a sentence are left to right and isolated: GET before /api/formats.
    const unmarked = await page.$$eval('main code, main .token', (codes) =>
      codes.filter((code) => code.closest('[dir="ltr"]') === null).map((code) => code.outerHTML),
    )
    expect(unmarked).toEqual([])
    const hint = page.locator('.token', { hasText: 'GET /api/formats' })
    expect(await hint.count()).toBe(1)
    // Kept whole and in order, on a phone too, where the sentence around it wraps.
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 })
      const lines = await hint.evaluate((token) => token.getClientRects().length)
      const [get, slash, api] = await drawnAt(page, '.hint:has(.token)', ['G', '/', 'api'])
      expect({ width, lines, order: get! < slash! && slash! < api! }).toEqual({
        width,
        lines: 1,
        order: true,
      })
    }
    await page.setViewportSize({ width: 1280, height: 900 })

    // The comparison's heading: the name at the right, then the colon, then the words.
    await page.locator('.job-actions button').first().click()
    const [colon, named, words] = await drawnAt(page, '#compare-title', [':', 'photo', 'پیش'])
    expect(named!).toBeGreaterThan(colon!)
    expect(colon!).toBeGreaterThan(words!)
    await page.close()
  }, 60_000)
})

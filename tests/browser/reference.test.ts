import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { BINARY } from '../helpers/api.ts'
import { announceBrowserSkip, HAS_CHROMIUM } from './chromium.ts'
import { browserSession } from './session.ts'

announceBrowserSkip('the reference page in a real browser')

/** Cells that reach past the screen's edges, and table boxes that scroll sideways. */
function cellsOffScreen(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth
    const cells = [...document.querySelectorAll('main td')]
      .filter((cell) => {
        const box = cell.getBoundingClientRect()
        return box.left < -0.5 || box.right > width + 0.5
      })
      .map((cell) => cell.textContent!.trim().slice(0, 40))
    const scrolling = [...document.querySelectorAll('.table-scroll')].filter(
      (box) => box.scrollWidth > box.clientWidth + 1,
    ).length
    return { cells, scrolling }
  })
}

/**
 * Identifiers (letters and digits joined by - / = _ :) that the browser drew on more than one
 * line, in code and in translated prose alike; ones longer than 30 characters may wrap.
 */
function splitIdentifiers(page: Page) {
  return page.evaluate(() => {
    const split: string[] = []
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const node = walker.currentNode as Text
      if (node.parentElement!.closest('pre')) continue
      for (const match of node.data.matchAll(/[A-Za-z0-9][\w.:/=+-]*[-/=_:][\w.:/=+-]*[A-Za-z0-9]/g)) {
        if (match[0].length > 30) continue
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
        if (lines.size > 1) split.push(match[0])
      }
    }
    return split
  })
}

describe.skipIf(!HAS_CHROMIUM || Boolean(BINARY))('the reference page in a real browser', () => {
  const session = browserSession()

  test('has contents whose every link leads to exactly one element on the page', async () => {
    const page = await session.browser.context.newPage()
    await page.goto(`${session.api.url}/docs/reference`)
    const targets = await page.$$eval('nav.page-contents a', (links) =>
      links.map((link) => {
        const id = decodeURIComponent(new URL((link as HTMLAnchorElement).href).hash.slice(1))
        return { id, matches: document.querySelectorAll(`#${CSS.escape(id)}`).length }
      }),
    )
    expect(targets.map((target) => target.id)).toEqual([
      'endpoints',
      'endpoint-health',
      'endpoint-formats',
      'endpoint-compress',
      'compress-parameters',
      'similarity',
      'errors',
      'formats',
      'settings',
    ])
    expect(targets.filter((target) => target.matches !== 1)).toEqual([])
    await page.close()
  }, 30_000)

  test('on a wide screen the contents stay in view while the reader follows them down the page', async () => {
    const page = await session.browser.context.newPage()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${session.api.url}/docs/reference`)
    const link = page.locator('nav.page-contents a[href="#settings"]')
    await link.click()
    await page.waitForFunction(() => location.hash === '#settings')
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(2000)
    // The section heading is at the top, and the contents are still on screen beside it.
    const section = await page.locator('#settings').boundingBox()
    expect(Math.abs(section!.y)).toBeLessThan(40)
    const contents = await page.locator('nav.page-contents').boundingBox()
    expect(contents!.y).toBeGreaterThanOrEqual(0)
    expect(contents!.y + contents!.height).toBeLessThanOrEqual(800)
    expect(await link.isVisible()).toBe(true)
    await page.close()
  }, 30_000)

  for (const language of ['en', 'fa']) {
    test(`on a 360 px phone in ${language}, every table cell is on screen under its column's name, and none scrolls sideways`, async () => {
      const page = await session.browser.context.newPage()
      await page.setViewportSize({ width: 360, height: 740 })
      for (const path of ['/docs/reference', '/docs/rate-limits']) {
        await page.goto(`${session.api.url}${path}?lang=${language}`)
        expect({ path, ...(await cellsOffScreen(page)) }).toEqual({ path, cells: [], scrolling: 0 })
        const unlabelled = await page.$$eval('main table.stacks', (tables) =>
          tables.flatMap((table) => {
            const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent)
            return [...table.querySelectorAll('tbody tr')].flatMap((row) =>
              [...row.children].slice(1).flatMap((cell, i) => {
                // The label is the column's name and a space that lets a long value break onto the next line.
                const label = getComputedStyle(cell, '::before').content
                return label === JSON.stringify(`${headers[i + 1]} `) ? [] : [`${headers[i + 1]}: ${label}`]
              }),
            )
          }),
        )
        expect({ path, unlabelled }).toEqual({ path, unlabelled: [] })
      }
      await page.close()
    }, 30_000)

    test(`in ${language}, identifiers such as X-Ignored-Options and auto-high are never split across lines, in tables or in prose, at 1280, 400 and 360 px`, async () => {
      const page = await session.browser.context.newPage()
      for (const width of [1280, 400, 360]) {
        await page.setViewportSize({ width, height: 800 })
        for (const path of ['/docs/reference', '/docs/rate-limits', '/docs/tester']) {
          await page.goto(`${session.api.url}${path}?lang=${language}`)
          expect({ width, path, split: await splitIdentifiers(page) }).toEqual({ width, path, split: [] })
        }
      }
      await page.close()
    }, 30_000)
  }
})

import type { Page } from 'playwright-core'

/**
 * How the site header lays out on this page: how many rows its parts (brand, section switch,
 * navigation, language) take, how many lines the navigation's links run to, whether the current
 * page's link is within the navigation's visible box, and whether the page scrolls sideways.
 */
export function headerRows(
  page: Page,
): Promise<{ rows: number; navLines: number; currentInView: boolean; pageOverflow: boolean }> {
  return page.evaluate(() => {
    const header = document.querySelector('.site-header')!
    const parts = [...header.children].filter((el) => el.getBoundingClientRect().height > 0)
    // Parts whose vertical spans overlap share a row.
    const spans = parts
      .map((el) => el.getBoundingClientRect())
      .map((box) => [box.top, box.bottom] as const)
      .sort((a, b) => a[0] - b[0])
    let rows = 0
    let bottom = -Infinity
    for (const [top, end] of spans) {
      if (top >= bottom - 1) rows++
      bottom = Math.max(bottom, end)
    }
    const links = [...header.querySelectorAll('.site-nav li')].map((li) => li.getBoundingClientRect().top)
    const navLines = new Set(links.map((top) => Math.round(top))).size
    const nav = header.querySelector('.site-nav ul')!.getBoundingClientRect()
    const current = header.querySelector('.site-nav [aria-current]')?.getBoundingClientRect()
    const currentInView = !current || (current.left >= nav.left - 1 && current.right <= nav.right + 1)
    const pageOverflow = document.documentElement.scrollWidth > document.documentElement.clientWidth
    return { rows, navLines, currentInView, pageOverflow }
  })
}

/**
 * On a phone the header's navigation is one line that scrolls sideways (site.css): the current
 * page's link is brought into it, so the reader sees where they are without scrolling.
 */
export function revealCurrentPage(): void {
  const current = document.querySelector<HTMLElement>('.site-nav [aria-current="page"]')
  const line = current?.closest('ul')
  if (!current || !line || line.scrollWidth <= line.clientWidth) return
  current.scrollIntoView({ block: 'nearest', inline: 'nearest' })
}

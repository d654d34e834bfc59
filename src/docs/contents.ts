import { html, type Html } from '../site/html.ts'

/** One entry of a page's contents: an in-page link, and the entries under it. */
export interface ContentsEntry {
  readonly id: string
  readonly label: Html | string
  readonly children?: readonly ContentsEntry[]
}

function entries(items: readonly ContentsEntry[]): Html {
  return html`<ol>${items.map(
    (item) =>
      html`<li><a href="#${item.id}">${item.label}</a>${item.children?.length ? entries(item.children) : ''}</li>`,
  )}</ol>`
}

/**
 * A long page's contents beside its body: a column that stays in view on a wide screen, the top
 * of the page on a narrow one (site.css, .with-contents).
 */
export function withContents(title: string, items: readonly ContentsEntry[], body: Html): Html {
  return html`<div class="with-contents">
<nav class="page-contents" aria-labelledby="contents-title">
<h2 id="contents-title">${title}</h2>
${entries(items)}
</nav>
<div class="contents-body">${body}</div>
</div>`
}

import { attr, html, type Html } from '../../site/html.ts'

/**
 * One table shape for the whole site: a caption, header cells and rows. On a phone each row
 * becomes a card, every cell under its column's name (data-label, site.css), so no column hides
 * off to the side; a table still too wide scrolls inside its own box, never the page.
 */
export interface TableSpec {
  readonly caption?: string
  readonly headers: readonly string[]
  readonly rows: readonly (readonly unknown[])[]
  /** An id per row, for links such as /docs/reference#CORRUPT_IMAGE. */
  readonly rowIds?: readonly string[]
  readonly className?: string
}

export function table(spec: TableSpec): Html {
  const rows = spec.rows.map(
    (cells, i) =>
      html`<tr${attr('id', spec.rowIds?.[i])}>${cells.map((cell, column) => html`<td data-label="${spec.headers[column]}">${cell}</td>`)}</tr>`,
  )
  return html`<div class="table-scroll" tabindex="0" role="region"${attr('aria-label', spec.caption)}>
<table class="${['stacks', spec.className].filter(Boolean).join(' ')}">
${spec.caption ? html`<caption>${spec.caption}</caption>` : ''}
<thead><tr>${spec.headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}

/** Identifiers, option names, header names: never translated, and marked so. */
export function code(text: string): Html {
  return html`<code translate="no">${text}</code>`
}

import { html, type Html } from '../site/html.ts'

/**
 * Alternatives joined as the reader's language joins them ("a, b, or c" in English, "a、b或c"
 * in Chinese, "a، b یا c" in Persian), or items that go together ("a, b, and c"), each item
 * rendered as markup (code, links).
 */
export function listOf(
  language: string,
  items: readonly Html[],
  type: 'disjunction' | 'conjunction' = 'disjunction',
): Html {
  const format = new Intl.ListFormat(language, { type })
  const placeholders = items.map((_, i) => `\u0001${i}\u0001`)
  const parts = format.formatToParts(placeholders).map((part) => {
    const match = /^\u0001(\d+)\u0001$/.exec(part.value)
    return part.type === 'element' && match ? items[Number(match[1])]! : html`${part.value}`
  })
  return html`${parts}`
}

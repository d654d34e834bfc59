import type { Page } from 'playwright-core'

/**
 * The text a reader sees on a page, node by node: code, identifiers (translate="no"), the
 * language names in the switcher (each in its own language) and hidden parts are left out.
 */
export function visibleText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const node = walker.currentNode
      const element = node.parentElement
      if (!element || element.closest('[translate="no"], code, pre, script, style, select, [hidden]'))
        continue
      const style = getComputedStyle(element)
      if (style.display === 'none' || style.visibility === 'hidden') continue
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim()
      if (text) texts.push(text)
    }
    for (const element of document.querySelectorAll<HTMLElement>(
      '[aria-label], [placeholder], [alt], [title]',
    )) {
      if (element.closest('[hidden]')) continue
      for (const name of ['aria-label', 'alt', 'title']) {
        const value = element.getAttribute(name)
        if (value) texts.push(value.trim())
      }
    }
    return texts
  })
}

/** Names that are the same in every language: the product, formats, protocols, tools. */
const UNTRANSLATED =
  /^(imgapi|OpenAPI|JSON|curl|PHP|Go|Python|Bun|Node\.js|TypeScript|JavaScript|HTTP|BlurHash|KiB|px|[A-Z]{2,5}|·|[\d\s.,:%×–-]+|[\d.,]+ (B|KiB|MiB|GiB|TiB))$/

/**
 * Words a language writes exactly as English does, reviewed one by one: a French table header
 * "Description" is French, not English left behind.
 */
const SAME_AS_ENGLISH: Readonly<Record<string, readonly string[]>> = {
  fr: [
    'Documentation',
    'Options',
    'Type',
    'Description',
    'Code',
    'Formats',
    'Python (requests)',
    'Format',
    'Animation',
    'Transparence',
    'Zoom',
    'Instagram portrait',
    'Saturation',
  ],
}

/** English texts from the English page that the page in another language still shows. */
export function leftInEnglish(
  english: readonly string[],
  other: readonly string[],
  language: string,
): string[] {
  const allowed = new Set(SAME_AS_ENGLISH[language] ?? [])
  const source = new Set(
    english.filter((text) => /[A-Za-z]{3,}/.test(text) && !UNTRANSLATED.test(text) && !allowed.has(text)),
  )
  return [...new Set(other.filter((text) => source.has(text)))]
}

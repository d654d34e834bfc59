/**
 * Identifiers inside translated prose (X-Resized-To-Fit, auto-high, multipart/form-data,
 * quality=auto) are plain text in the locale files. A browser breaks lines at their hyphens and
 * slashes, and in a right-to-left sentence it may even reorder their parts. Each is wrapped in
 * <span class="token" translate="no">, an identifier never translated, which site.css keeps
 * whole and left to right, isolated from the sentence.
 * Code, preformatted text and form controls are left alone: they are never reflowed this way.
 */
// Options sit inside a select or a datalist, and may omit their end tag: only their parents count.
const SKIPPED = new Set(['pre', 'code', 'kbd', 'samp', 'script', 'style', 'select', 'datalist', 'textarea'])

/**
 * A run of identifier characters with at least one inner separator, starting and ending on a
 * letter or digit; a path keeps the HTTP method in front of it (GET /api/formats).
 */
const TOKEN =
  /(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (?=\/))?(?:--|[/#$~])?[A-Za-z0-9][\w.:/=+#*@-]*[-/=_:][\w.:/=+#*@-]*[A-Za-z0-9]/g

/** Longer identifiers (a draft's name, a URL) may wrap: kept whole, they would not fit a phone. */
const LONGEST_TOKEN = 30

/** The same markup with every identifier in its text wrapped; tags and attributes are untouched. */
export function isolateTokens(markup: string): string {
  let skipping = 0
  return markup.replace(/(<[^>]*>)|([^<]+)/g, (_, tag: string | undefined, text: string | undefined) => {
    if (tag) {
      const name = /^<(\/?)([a-zA-Z][\w-]*)/.exec(tag)
      if (name && SKIPPED.has(name[2]!.toLowerCase())) skipping += name[1] ? -1 : 1
      return tag
    }
    if (skipping > 0) return text!
    return tokenParts(text!)
      .map((part) => (part.token ? `<span class="token" translate="no">${part.text}</span>` : part.text))
      .join('')
  })
}

/** Plain text cut into prose and identifiers, for pages that draw their text in the browser. */
export function tokenParts(text: string): { readonly text: string; readonly token: boolean }[] {
  const parts: { text: string; token: boolean }[] = []
  let last = 0
  for (const match of text.matchAll(TOKEN)) {
    if (match[0].length > LONGEST_TOKEN) continue
    if (match.index > last) parts.push({ text: text.slice(last, match.index), token: false })
    parts.push({ text: match[0], token: true })
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last), token: false })
  return parts
}

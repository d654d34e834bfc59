import type { TFunction } from 'i18next'
import { escapeHtml, Html } from '../site/html.ts'

/**
 * A translated sentence with markup (links, code) in its placeholders. Translators see
 * `{{document}}` and move it where their grammar wants it; the markup itself never passes
 * through the locale files, so a translation cannot break or inject it.
 */
export function tMarkup(t: TFunction, key: string, parts: Record<string, Html | string | number>): Html {
  const tokens = Object.keys(parts).map((name, i) => [name, `\u0001${i}\u0001`] as const)
  const text = t(key, Object.fromEntries(tokens)) as string
  let out = escapeHtml(text)
  for (const [i, [name]] of tokens.entries()) {
    const part = parts[name]!
    out = out.replaceAll(`\u0001${i}\u0001`, part instanceof Html ? part.value : escapeHtml(String(part)))
  }
  return new Html(out)
}

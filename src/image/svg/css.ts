/*
 * Finds what CSS `url()` points at, anywhere in a text. SVG carries CSS in `<style>`, in
 * `style` attributes and in presentation attributes (`fill="url(#g)"`), so the screen reads
 * the whole document this way: a false alarm in a comment costs a refusal, a miss costs the
 * promise. One linear pass; no regular expression with nested repetition touches the text.
 */
import { DATA_URL_HEAD_CHARS } from './data-url.ts'

// A backslash, then 1-6 hex digits and at most one white space (CRLF counts as one), or any
// character but a newline or a hex digit.
const CSS_ESCAPE = /\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\n\r\f])?|([^\n\r\f0-9a-f]))/gi

function fromCssCodePoint(value: number): string {
  const isSurrogate = value >= 0xd800 && value <= 0xdfff
  return value === 0 || isSurrogate || value > 0x10ffff ? '\uFFFD' : String.fromCodePoint(value)
}

/**
 * Replaces CSS escapes with the characters they stand for, so `\75rl(` reads `url(` and
 * `@\69mport` reads `@import`, as a CSS parser sees them. Applied to the whole document it also
 * rewrites text that is not CSS; that can only cause a refusal, never hide a reference.
 */
export function unescapeCss(text: string): string {
  if (!text.includes('\\')) return text
  return text.replace(CSS_ESCAPE, (_, hex?: string, character?: string) =>
    hex === undefined ? character! : fromCssCodePoint(parseInt(hex, 16)),
  )
}

export type CssUrl =
  | { readonly kind: 'fragment'; readonly id: string }
  | { readonly kind: 'data'; readonly head: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'other'; readonly reference: string }

// URL parsers drop leading C0 controls and spaces; CSS drops white space, all of them <= U+0020.
function skipControlsAndSpaces(text: string, i: number): number {
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++
  return i
}

// '(' ')' '"' "'" '\\' and anything up to U+0020 end a fragment id or a reference in an error.
const endsReference = (c: number) =>
  c <= 0x20 || c === 0x28 || c === 0x29 || c === 0x22 || c === 0x27 || c === 0x5c

function endOfReference(text: string, from: number, limit: number): number {
  let i = from
  while (i < limit && i < text.length && !endsReference(text.charCodeAt(i))) i++
  return i
}

function readUrlArgument(text: string, lower: string, start: number): CssUrl {
  let i = skipControlsAndSpaces(text, start)
  if (text[i] === '"' || text[i] === "'") i = skipControlsAndSpaces(text, i + 1)
  const c = text[i]
  if (c === '#') return { kind: 'fragment', id: text.slice(i + 1, endOfReference(text, i + 1, Infinity)) }
  if (lower.startsWith('data:', i)) return { kind: 'data', head: text.slice(i, i + DATA_URL_HEAD_CHARS) }
  if (c === undefined || c === ')' || c === '"' || c === "'") return { kind: 'empty' }
  return { kind: 'other', reference: text.slice(i, Math.max(i + 1, endOfReference(text, i, i + 80))) }
}

/** Calls `visit` with the argument of every `url(` in `text`, in order. */
export function forEachCssUrl(text: string, visit: (url: CssUrl) => void): void {
  const lower = text.toLowerCase()
  for (let at = lower.indexOf('url('); at !== -1; at = lower.indexOf('url(', at + 4))
    visit(readUrlArgument(text, lower, at + 4))
}

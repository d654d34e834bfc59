/*
 * Which elements the url(#id) references of a <style> sheet reach, for the SVG cost bound:
 * `path { marker-mid: url(#m) }` draws marker m at every vertex of every path. The bound does
 * not need the exact set, only one at least as large: a rule counts as reaching an element when
 * the id, else a class, else the type name of its selectors' last compound could match it
 * (ancestors, pseudo-classes and attribute tests are ignored). One pass over the sheet.
 */
import { forEachCssUrl, unescapeCss } from './css.ts'

/** Which elements a selector may match. */
export type SelectorSubject =
  { readonly by: 'id' | 'class' | 'type'; readonly name: string } | { readonly by: 'any' }

export interface StyleReference {
  readonly subjects: readonly SelectorSubject[]
  /** Fragment ids referenced by the rule's declarations, lower case. */
  readonly ids: readonly string[]
}

/** Past this nesting of blocks the sheet is treated as one rule that matches every element. */
const MAX_NESTING = 32
const ANY: readonly SelectorSubject[] = [{ by: 'any' }]

function fragmentIds(css: string): string[] {
  const ids: string[] = []
  forEachCssUrl(unescapeCss(css), (url) => {
    if (url.kind === 'fragment' && url.id !== '') ids.push(url.id.toLowerCase())
  })
  return ids
}

function stripComments(css: string): string {
  let kept = ''
  let from = 0
  for (let start = css.indexOf('/*'); start !== -1; start = css.indexOf('/*', from)) {
    kept += css.slice(from, start)
    const end = css.indexOf('*/', start + 2)
    from = end === -1 ? css.length : end + 2
  }
  return kept + css.slice(from)
}

/** Where the string that opens at `at` ends (CSS strings also end at a newline). */
function endOfString(css: string, at: number): number {
  for (let i = at + 1; i < css.length; i++) {
    if (css[i] === '\\') i++
    else if (css[i] === css[at] || css[i] === '\n') return i
  }
  return css.length
}

/** Calls `visit` for each character outside strings, brackets, parentheses and escapes. */
function forEachTopLevel(text: string, visit: (c: string, i: number) => void): void {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\') i++
    else if (c === '"' || c === "'") i = endOfString(text, i)
    else if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1)
    else if (depth === 0) visit(c, i)
  }
}

const isNameCharacter = (c: string) => /[-_a-zA-Z0-9\u0080-\uffff]/.test(c)

function readName(text: string, from: number): string {
  let i = from
  while (i < text.length && (isNameCharacter(text[i]!) || text[i] === '\\')) i += text[i] === '\\' ? 2 : 1
  return unescapeCss(text.slice(from, i)).toLowerCase()
}

function subjectOf(selector: string): SelectorSubject {
  let start = 0
  forEachTopLevel(selector, (c, i) => {
    if (/[\s>+~]/.test(c)) start = i + 1
  })
  const compound = selector.slice(start)
  let id: string | undefined
  let className: string | undefined
  forEachTopLevel(compound, (c, i) => {
    if (c === '#' && id === undefined) id = readName(compound, i + 1)
    if (c === '.' && className === undefined) className = readName(compound, i + 1)
  })
  if (id) return { by: 'id', name: id }
  if (className) return { by: 'class', name: className }
  const type = readName(compound.slice(compound.indexOf('|') + 1), 0) // drops a namespace prefix
  return type ? { by: 'type', name: type } : { by: 'any' }
}

function selectorSubjects(prelude: string): SelectorSubject[] {
  const selectors: string[] = []
  let from = 0
  forEachTopLevel(prelude, (c, i) => {
    if (c !== ',') return
    selectors.push(prelude.slice(from, i))
    from = i + 1
  })
  selectors.push(prelude.slice(from))
  return selectors.map((selector) => subjectOf(selector.trim()))
}

/** The rules of `css` that reference fragment ids, with the elements they may reach. */
export function styleReferences(css: string): StyleReference[] {
  const found: StyleReference[] = []
  const open: { prelude: string; start: number }[] = []
  let preludeStart = 0
  const close = (end: number) => {
    const block = open.pop()!
    const prelude = stripComments(block.prelude).trim()
    if (prelude.startsWith('@')) return // @media and the like hold rules, closed on their own
    const ids = fragmentIds(css.slice(block.start, end))
    if (ids.length > 0) found.push({ subjects: selectorSubjects(prelude), ids })
  }
  for (let i = 0; i < css.length; i++) {
    const c = css[i]
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2)
      i = end === -1 ? css.length : end + 1
    } else if (c === '"' || c === "'") i = endOfString(css, i)
    else if (c === '\\') i++
    else if (c === '{') {
      if (open.length === MAX_NESTING) return [{ subjects: ANY, ids: fragmentIds(css) }]
      open.push({ prelude: css.slice(preludeStart, i), start: i + 1 })
      preludeStart = i + 1
    } else if (c === '}' || c === ';') {
      if (c === '}' && open.length > 0) close(i)
      preludeStart = i + 1
    }
  }
  while (open.length > 0) close(css.length) // CSS closes what is left open at the end
  return found
}

/*
 * A small XML reader for the SVG screen. It reads the lexical structure XML 1.0 defines (tags,
 * attributes, comments, CDATA, processing instructions, the DOCTYPE) in one linear pass and
 * refuses what it cannot read. Refusing is safe: librsvg parses with libxml2 without recovery
 * and renders nothing from malformed XML, so any document this reader accepts is one whose
 * structure both agree on. Regular expressions over the raw text could not promise that (a
 * `>` inside a quoted value, a namespace prefix with a dot) nor stay linear on hostile input.
 */
import { AppError } from '../../errors/app-error.ts'
import { decodeXmlReferences } from './text.ts'

export interface XmlAttribute {
  readonly name: string
  /** Character references and predefined entities decoded. */
  readonly value: string
}

export interface XmlStartTag {
  readonly name: string
  readonly attributes: readonly XmlAttribute[]
}

/** Called in document order; a self-closing tag is a start tag followed by its end tag. */
export interface MarkupHandler {
  /** `declaration` runs from `<!DOCTYPE` to `>`, or to `[` when an internal subset follows. */
  doctype(declaration: string, hasInternalSubset: boolean): void
  processingInstruction(target: string, body: string): void
  startTag(tag: XmlStartTag): void
  endTag(name: string): void
  /** Character data as written (references not decoded: most callers never look) and CDATA. */
  text(text: string, isCdata: boolean): void
}

/** `xlink:href` -> `href`. Names with more than one colon keep only the last part. */
export const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1)

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
// Ends a name: white space, '/', '<', '=', '>', '"', "'".
const endsName = (c: number) =>
  isSpace(c) || c === 0x2f || c === 0x3c || c === 0x3d || c === 0x3e || c === 0x22 || c === 0x27

/** A name from the document, short enough for an error message. */
const shown = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}...` : name)

function malformed(what: string, at: number): never {
  throw new AppError('CORRUPT_IMAGE', `expected well-formed SVG (XML), received ${what} at character ${at}`)
}

function skipSpaces(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

function scanName(text: string, i: number): number {
  while (i < text.length && !endsName(text.charCodeAt(i))) i++
  return i
}

function find(text: string, token: string, from: number, what: string, at: number): number {
  const found = text.indexOf(token, from)
  return found === -1 ? malformed(what, at) : found
}

/** Reads the whole document, calling `handler` for each piece; throws CORRUPT_IMAGE if malformed. */
export function readMarkup(text: string, handler: MarkupHandler): void {
  const open: string[] = []
  let i = 0
  while (i < text.length) {
    const lt = text.indexOf('<', i)
    const end = lt === -1 ? text.length : lt
    if (end > i) handler.text(text.slice(i, end), false)
    if (lt === -1) break
    i = readMarkupAt(text, lt, handler, open)
  }
  if (open.length > 0) malformed(`<${shown(open.at(-1)!)}> never closed`, text.length)
}

function readMarkupAt(text: string, at: number, handler: MarkupHandler, open: string[]): number {
  if (text.startsWith('<!--', at)) return find(text, '-->', at + 4, 'an unterminated comment', at) + 3
  if (text.startsWith('<![CDATA[', at)) {
    const end = find(text, ']]>', at + 9, 'an unterminated CDATA section', at)
    handler.text(text.slice(at + 9, end), true)
    return end + 3
  }
  if (text.startsWith('<!DOCTYPE', at)) return readDoctype(text, at, handler)
  if (text.startsWith('<!', at)) malformed('a markup declaration outside a DTD', at)
  if (text.startsWith('<?', at)) return readProcessingInstruction(text, at, handler)
  if (text.startsWith('</', at)) return readEndTag(text, at, handler, open)
  return readStartTag(text, at, handler, open)
}

function readDoctype(text: string, at: number, handler: MarkupHandler): number {
  for (let i = at + 9; i < text.length; i++) {
    const c = text[i]
    if (c === '"' || c === "'") i = find(text, c, i + 1, 'an unterminated DOCTYPE literal', at)
    else if (c === '>') {
      handler.doctype(text.slice(at, i + 1), false)
      return i + 1
    } else if (c === '[') {
      handler.doctype(text.slice(at, i), true)
      // This reader does not read DTDs; the handler is expected to have refused already.
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'expected an SVG without an internal DTD subset')
    }
  }
  return malformed('an unterminated DOCTYPE', at)
}

function readProcessingInstruction(text: string, at: number, handler: MarkupHandler): number {
  const end = find(text, '?>', at + 2, 'an unterminated processing instruction', at)
  let targetEnd = at + 2 // a target is a name, so it ends at white space or the closing '?'
  while (targetEnd < end && !isSpace(text.charCodeAt(targetEnd)) && text[targetEnd] !== '?') targetEnd++
  const target = text.slice(at + 2, targetEnd)
  if (target === '') malformed('a processing instruction without a target', at)
  // The XML declaration may only open the document (after a BOM, already dropped).
  if (target.toLowerCase() === 'xml' && at !== 0) malformed('an XML declaration after the start', at)
  handler.processingInstruction(target, text.slice(targetEnd, end))
  return end + 2
}

function readEndTag(text: string, at: number, handler: MarkupHandler, open: string[]): number {
  const nameEnd = scanName(text, at + 2)
  const name = text.slice(at + 2, nameEnd)
  const close = skipSpaces(text, nameEnd)
  if (text[close] !== '>') malformed(`an unterminated </${shown(name)}>`, at)
  const expected = open.pop()
  if (name !== expected)
    malformed(`</${shown(name)}> where ${expected ? `</${shown(expected)}>` : 'no end tag'} belongs`, at)
  handler.endTag(name)
  return close + 1
}

function readStartTag(text: string, at: number, handler: MarkupHandler, open: string[]): number {
  const nameEnd = scanName(text, at + 1)
  if (nameEnd === at + 1) malformed('a "<" that starts no tag', at)
  const name = text.slice(at + 1, nameEnd)
  const attributes: XmlAttribute[] = []
  let i = nameEnd
  for (;;) {
    i = skipSpaces(text, i)
    if (text[i] === '>' || text.startsWith('/>', i)) {
      handler.startTag({ name, attributes })
      if (text[i] === '>') open.push(name)
      else handler.endTag(name)
      return i + (text[i] === '>' ? 1 : 2)
    }
    const attributeEnd = scanName(text, i)
    if (attributeEnd === i)
      malformed(i < text.length ? `an unexpected "${text[i]}" in <${shown(name)}>` : 'an unterminated tag', i)
    const attribute = text.slice(i, attributeEnd)
    i = skipSpaces(text, attributeEnd)
    if (text[i] !== '=') malformed(`attribute ${shown(attribute)} without a value`, i)
    i = skipSpaces(text, i + 1)
    const quote = text[i]
    if (quote !== '"' && quote !== "'") malformed(`attribute ${shown(attribute)} without quotes`, i)
    const close = find(text, quote, i + 1, `an unterminated value of ${shown(attribute)}`, i)
    attributes.push({ name: attribute, value: decodeXmlReferences(text.slice(i + 1, close)) })
    i = close + 1
  }
}

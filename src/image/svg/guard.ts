/*
 * SVG is a document format that can point at other documents, and at parts of itself many times
 * over; this file screens the first, cost.ts bounds the second. librsvg does not fetch from
 * the network when given a buffer, but we do not rely on one library's defaults: an SVG that
 * references anything outside itself (URLs, files, XInclude, entities, DTDs, style sheets) is
 * refused before any parser sees it. Same-document (#id) references are allowed, and data: URLs
 * that hold an image or a font (see data-url.ts).
 */
import { AppError } from '../../errors/app-error.ts'
import { forEachCssUrl, unescapeCss } from './css.ts'
import { SvgCostCounter } from './cost.ts'
import { DATA_URL_HEAD_CHARS, dataUrlProblem } from './data-url.ts'
import { SVG_LIMITS, type SvgLimits } from './limits.ts'
import { localName, readMarkup, type XmlAttribute, type XmlStartTag } from './markup.ts'
import { decodeXmlReferences, svgText } from './text.ts'

/**
 * Attributes that name a URL: SVG and XLink `href` (under any prefix: librsvg resolves the XLink
 * namespace, not the prefix), `xml:base`, and HTML's, which a browser would load from inside
 * `<foreignObject>`.
 */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'base',
  'data',
  'poster',
  'action',
  'formaction',
  'background',
])
/** Attributes holding lists of URLs; no SVG needs them, so any value is refused. */
const URL_LIST_ATTRIBUTES = new Set(['srcset', 'ping', 'archive'])

/** The W3C SVG DTDs: no renderer fetches these, and editors write them. Any other DTD is refused. */
const STANDARD_DOCTYPES = new Map([
  ['-//W3C//DTD SVG 1.0//EN', 'http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd'],
  ['-//W3C//DTD SVG 20010904//EN', 'http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd'],
  ['-//W3C//DTD SVG 1.1//EN', 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd'],
  ['-//W3C//DTD SVG 1.1 Basic//EN', 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11-basic.dtd'],
  ['-//W3C//DTD SVG 1.1 Tiny//EN', 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11-tiny.dtd'],
])

function refuse(what: string): never {
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `expected a self-contained SVG, received one with ${what}; only same-document (#id) references and data: images or fonts are allowed`,
  )
}

const quoted = (reference: string) => JSON.stringify(reference.slice(0, 80))

function assertDataUrlAllowed(head: string): void {
  const problem = dataUrlProblem(head)
  if (problem !== undefined) refuse(problem)
}

function assertInternalReference(value: string, where: string): void {
  // URL parsers strip leading C0 controls and spaces, and nothing else (not U+00A0).
  const reference = value.replace(/^[\x00-\x20]+/, '')
  if (reference === '' || reference.startsWith('#')) return
  if (/^data:/i.test(reference)) return assertDataUrlAllowed(reference.slice(0, DATA_URL_HEAD_CHARS))
  refuse(`an external reference in ${where} (${quoted(reference)})`)
}

/**
 * Whole-text rules: they hold wherever the text sits, even in a comment. CSS is read as a CSS
 * parser reads it, after XML references (`&#x5c;` is a backslash) and then CSS escapes.
 */
function screenText(text: string): void {
  const decoded = decodeXmlReferences(text)
  if (/<!ENTITY/i.test(decoded)) refuse('entity declarations (an internal DTD)')
  if (/XInclude/i.test(decoded)) refuse('an XInclude')
  const css = unescapeCss(decoded)
  if (/@import/i.test(css)) refuse('a CSS @import')
  // image-set() takes plain strings as URLs; no renderer of SVG to pixels needs it.
  if (/image-set\(/i.test(css)) refuse('a CSS image-set()')
  forEachCssUrl(css, (url) => {
    if (url.kind === 'other') refuse(`an external reference in url() (${quoted(url.reference)})`)
    if (url.kind === 'data') assertDataUrlAllowed(url.head)
  })
}

function screenDoctype(declaration: string, hasInternalSubset: boolean): void {
  if (hasInternalSubset) refuse('an internal DTD subset (entity or attribute declarations)')
  const words = doctypeWords(declaration)
  if (words.length === 1) return // <!DOCTYPE svg>: names no DTD
  const [, keyword, publicId = '', systemId] = words
  if (keyword === 'PUBLIC' && words.length === 4 && STANDARD_DOCTYPES.get(publicId) === systemId) return
  refuse(`a DOCTYPE naming a DTD other than the W3C SVG ones (${words.slice(1).join(' ')})`)
}

const isXmlSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r'

/** `<!DOCTYPE svg PUBLIC "a" "b">` -> ['svg', 'PUBLIC', 'a', 'b'], in one pass. */
function doctypeWords(declaration: string): string[] {
  const words: string[] = []
  const body = declaration.slice('<!DOCTYPE'.length, -1)
  let i = 0
  while (i < body.length) {
    const c = body[i]
    if (c === '"' || c === "'") {
      const close = body.indexOf(c, i + 1)
      if (close === -1) break // the reader only hands over closed literals
      words.push(body.slice(i + 1, close))
      i = close + 1
    } else if (isXmlSpace(c)) i++
    else {
      const start = i
      while (i < body.length && !isXmlSpace(body[i]) && body[i] !== '"' && body[i] !== "'") i++
      words.push(body.slice(start, i))
    }
  }
  return words
}

function screenAttribute(attribute: XmlAttribute): void {
  const name = localName(attribute.name).toLowerCase()
  if (URL_ATTRIBUTES.has(name)) assertInternalReference(attribute.value, attribute.name)
  if (URL_LIST_ATTRIBUTES.has(name) && attribute.value.trim() !== '') refuse(`a ${attribute.name} attribute`)
  // SMIL can set an href at render time: <set attributeName="href" to="http://...">.
  if (name === 'attributename' && URL_ATTRIBUTES.has(localName(attribute.value.trim()).toLowerCase()))
    refuse(`an animation of ${attribute.value.trim()}`)
}

function screenStartTag(tag: XmlStartTag): void {
  if (localName(tag.name).toLowerCase() === 'include') refuse('an XInclude')
  for (const attribute of tag.attributes) screenAttribute(attribute)
}

/**
 * Screens XML/SVG input before any parser sees it; other bytes pass untouched. Throws
 * UNSUPPORTED_MEDIA_TYPE for SVG that reaches outside itself, IMAGE_TOO_LARGE for SVG that would
 * cost more than `limits` to draw, CORRUPT_IMAGE for XML the screen cannot read.
 */
export function screenSvg(bytes: Uint8Array, maxBytes: number, limits: SvgLimits = SVG_LIMITS): void {
  const text = svgText(bytes, maxBytes)
  if (text === undefined) return
  screenText(text)
  const cost = new SvgCostCounter(limits)
  readMarkup(text, {
    doctype: screenDoctype,
    processingInstruction: (target) => {
      // librsvg loads the style sheet an <?xml-stylesheet href="..."?> names.
      if (target.toLowerCase() === 'xml-stylesheet') refuse('an xml-stylesheet processing instruction')
    },
    startTag: (tag) => {
      screenStartTag(tag)
      cost.startTag(tag)
    },
    endTag: () => cost.endTag(),
    text: (text, isCdata) => cost.text(text, isCdata),
  })
  cost.assertWithinLimits()
}

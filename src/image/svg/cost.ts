/*
 * Collects what the SVG cost bound needs while the markup reader walks the document: each
 * element's name, id, classes, the ids its attributes reference, its vertices (a marker is
 * drawn at each), its characters of text, and the text of <style> sheets. Refuses at once past
 * the element and text-run limits, so a huge flat document or line of text costs little to refuse.
 */
import { AppError } from '../../errors/app-error.ts'
import { forEachCssUrl, unescapeCss } from './css.ts'
import { localName, type XmlStartTag } from './markup.ts'
import type { ElementNode } from './cost-references.ts'
import { measureCost } from './cost-walk.ts'
import { SVG_LIMITS, type SvgLimits } from './limits.ts'
import { decodeXmlReferences } from './text.ts'

// Their href names an element without drawing it (a link target, an animation target).
const NON_DRAWING_HREF = new Set([
  'a',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'set',
  'discard',
  'mpath',
])

const PATH_COMMAND = new Uint8Array(128)
for (const c of 'MLHVCSQTAZmlhvcsqtaz') PATH_COMMAND[c.charCodeAt(0)] = 1

/** Digit runs plus path commands: at least the number of vertices, usually 2-3 times it. */
function countVertices(data: string): number {
  let count = 0
  let inNumber = false
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i)
    const digit = c >= 0x30 && c <= 0x39
    if (digit && !inNumber) count++
    inNumber = digit
    count += PATH_COMMAND[c] ?? 0
  }
  return Math.max(1, count)
}

function verticesOf(name: string, attribute: (name: string) => string | undefined): number {
  if (name === 'path') return countVertices(attribute('d') ?? '')
  if (name === 'polyline' || name === 'polygon') return countVertices(attribute('points') ?? '')
  return name === 'line' ? 2 : 0
}

/** Ids named by href (drawn here, as <use> does) and by url(#id) (painted, clipped, marked...). */
function referencedIds(name: string, tag: XmlStartTag): { href: string[]; url: string[] } {
  const href: string[] = []
  const url: string[] = []
  for (const { name: attribute, value } of tag.attributes) {
    if (localName(attribute) === 'href' && !NON_DRAWING_HREF.has(name)) {
      const reference = value.replace(/^[\x00-\x20]+/, '')
      if (reference.startsWith('#')) href.push(reference.slice(1).trim().toLowerCase())
    }
    if (!/url\(|\\/i.test(value)) continue
    forEachCssUrl(unescapeCss(value), (found) => {
      if (found.kind === 'fragment') url.push(found.id.toLowerCase())
    })
  }
  return { href: href.filter(Boolean), url: url.filter(Boolean) }
}

/** Collects elements as the markup reader meets them, then measures their cost. */
export class SvgCostCounter {
  private readonly nodes: ElementNode[] = []
  private readonly open: number[] = []
  private readonly styleSheets: string[] = []
  private styleText: string[] | undefined
  /** Open <text> elements, and the length of the run of text being read inside them. */
  private textDepth = 0
  private runLength = 0

  constructor(private readonly limits: SvgLimits = SVG_LIMITS) {}

  startTag(tag: XmlStartTag): void {
    if (this.nodes.length >= this.limits.maxElements) {
      throw new AppError(
        'IMAGE_TOO_LARGE',
        `expected an SVG of at most ${this.limits.maxElements} elements, received one with more`,
      )
    }
    const name = localName(tag.name).toLowerCase()
    const attribute = (wanted: string) => tag.attributes.find((a) => localName(a.name) === wanted)?.value
    const parent = this.open.at(-1) ?? -1
    const index = this.nodes.length
    this.nodes.push({
      name,
      parent,
      id: attribute('id')?.trim().toLowerCase(),
      classes:
        attribute('class')
          ?.toLowerCase()
          .split(/[ \t\r\n]+/)
          .filter(Boolean) ?? [],
      ...referencedIds(name, tag),
      vertices: verticesOf(name, attribute),
      characters: 0,
      children: [],
      last: index,
    })
    this.nodes[parent]?.children.push(index)
    this.open.push(index)
    this.runLength = 0
    if (name === 'text') this.textDepth++
    if (name === 'style') this.styleText ??= []
  }

  endTag(): void {
    const node = this.nodes[this.open.pop()!]!
    node.last = this.nodes.length - 1
    this.runLength = 0
    if (node.name === 'text') this.textDepth--
    // All the text inside a <style>, even around elements that should not be there.
    if (this.styleText && !this.open.some((i) => this.nodes[i]!.name === 'style')) {
      this.styleSheets.push(this.styleText.join(''))
      this.styleText = undefined
    }
  }

  /** Text as written: references count as their length, which can only over-count. */
  text(text: string, isCdata: boolean): void {
    this.styleText?.push(isCdata ? text : decodeXmlReferences(text))
    if (this.textDepth === 0) return
    // Character data and CDATA sections next to each other make one run.
    this.runLength += text.length
    if (this.runLength > this.limits.maxTextRunCharacters) {
      throw new AppError(
        'IMAGE_TOO_LARGE',
        `expected an SVG whose runs of text hold at most ${this.limits.maxTextRunCharacters} characters, received one with more; split long text into <tspan>s`,
      )
    }
    this.nodes[this.open.at(-1)!]!.characters += text.length
  }

  /** Throws IMAGE_TOO_LARGE when drawing the document would exceed a limit. */
  assertWithinLimits(): void {
    measureCost(this.nodes, this.styleSheets, this.limits)
  }
}

/*
 * Which elements each SVG element draws by reference, for the cost walk: the ids its own href
 * and url(#id) name, the url(#id) of <style> rules that may reach it, and the markers and
 * patterns it inherits. Fill, stroke and markers are inherited, so those a container names reach
 * every shape beneath it. Gradients draw no elements and are left out.
 */
import { styleReferences, type SelectorSubject } from './stylesheet.ts'

export interface ElementNode {
  /** Local name, lower case. */
  readonly name: string
  /** Index of the parent element, -1 for a root. */
  readonly parent: number
  /** Lower case, as are classes and referenced ids: matching more than librsvg only over-counts. */
  readonly id: string | undefined
  readonly classes: readonly string[]
  /** Ids named by the element's own href attributes. */
  readonly href: readonly string[]
  /** Ids named by url(#id) in the element's own attributes. */
  readonly url: readonly string[]
  /** At least the vertices a marker would be drawn at on this element itself. */
  readonly vertices: number
  /** Characters of text directly inside the element, when it is inside a <text>. */
  characters: number
  readonly children: number[]
  /** Index of the last descendant: element `a` contains `b` when a <= b <= last(a). */
  last: number
}

// What fill and stroke paint (so what draws a pattern), and what inherits a marker or pattern.
export const SHAPES = new Set([
  'path',
  'line',
  'polyline',
  'polygon',
  'rect',
  'circle',
  'ellipse',
  'text',
  'tspan',
  'textpath',
])
const INHERITORS = new Set([...SHAPES, 'use'])
const PAINT_ONLY = new Set(['lineargradient', 'radialgradient', 'meshgradient', 'solidcolor'])

const contains = (nodes: readonly ElementNode[], outer: number, inner: number) =>
  outer <= inner && inner <= nodes[outer]!.last

function indexBy(nodes: readonly ElementNode[], keys: (node: ElementNode) => Iterable<string>) {
  const index = new Map<string, number[]>()
  nodes.forEach((node, i) => {
    for (const key of keys(node)) {
      const found = index.get(key)
      if (found) found.push(i)
      else index.set(key, [i])
    }
  })
  return index
}

export interface References {
  readonly href: number[][]
  readonly url: number[][]
}

/** Adds the url(#id) references of <style> rules to the elements the rules may reach. */
function addStyleReferences(
  nodes: readonly ElementNode[],
  styleSheets: readonly string[],
  drawing: (ids: readonly string[]) => number[],
  references: References,
  count: () => void,
): void {
  const rules = styleSheets.flatMap(styleReferences)
  if (rules.length === 0) return
  const index = {
    id: indexBy(nodes, (node) => (node.id ? [node.id] : [])),
    class: indexBy(nodes, (node) => node.classes),
    type: indexBy(nodes, (node) => [node.name]),
  }
  const everyElement = nodes.map((_, i) => i)
  const candidates = (subject: SelectorSubject) =>
    subject.by === 'any' ? everyElement : (index[subject.by].get(subject.name) ?? [])
  for (const { subjects, ids } of rules) {
    const reached = drawing(ids)
    for (const element of reached.length > 0 ? subjects.flatMap(candidates) : []) {
      for (const target of reached) {
        count()
        // A rule reaching inside its own target (a marker's path styled with that marker) is a
        // loop librsvg skips, not an expansion.
        if (!contains(nodes, target, element)) references.url[element]!.push(target)
      }
    }
  }
}

/**
 * Moves each marker and pattern a container names onto the shapes and <use>s beneath it. The
 * content of a marker or pattern inherits from its own ancestors, so a marker's paths take the
 * markers named above them and every copy of that marker draws those again: counting per shape
 * captures it. A target is not moved inside itself, a loop librsvg cuts.
 */
function inheritDown(nodes: readonly ElementNode[], references: References, count: () => void): void {
  const inherited = (t: number) => nodes[t]!.name === 'marker' || nodes[t]!.name === 'pattern'
  const above: { last: number; targets: number[] }[] = []
  nodes.forEach((node, i) => {
    while (above.length > 0 && above.at(-1)!.last < i) above.pop()
    if (INHERITORS.has(node.name)) {
      for (const { targets } of above) {
        for (const target of targets) {
          count()
          if (!contains(nodes, target, i)) references.url[i]!.push(target)
        }
      }
      return
    }
    const targets = references.url[i]!.filter(inherited)
    if (targets.length === 0) return
    above.push({ last: node.last, targets })
    references.url[i] = references.url[i]!.filter((t) => !inherited(t))
  })
}

/**
 * For each element, the elements it draws by href and by url(#id). `onAdded` is called for each
 * reference a style sheet rule or inheritance adds, so the caller can bound their number.
 */
export function resolveReferences(
  nodes: readonly ElementNode[],
  styleSheets: readonly string[],
  onAdded: () => void,
): References {
  const byId = indexBy(nodes, (node) => (node.id ? [node.id] : []))
  const drawing = (ids: readonly string[]) =>
    ids.flatMap((id) => byId.get(id) ?? []).filter((t) => !PAINT_ONLY.has(nodes[t]!.name))
  const none: number[] = []
  const references = {
    href: nodes.map((node) => (node.href.length > 0 ? drawing(node.href) : none)),
    url: nodes.map((node) => (node.url.length > 0 ? drawing(node.url) : [])),
  }
  addStyleReferences(nodes, styleSheets, drawing, references, onAdded)
  inheritDown(nodes, references, onAdded)
  return references
}

/*
 * Measures what drawing an SVG costs: how many elements are drawn once every reference is
 * expanded (a <use> draws its target's subtree, a marker is drawn at each vertex of the element
 * naming it, url(#id) draws a pattern, mask, clip path or filter for each element naming it), and
 * how many filter primitives run. Each element is measured once and its result reused, so the
 * walk is linear in elements plus references however large the expansion it computes. A
 * reference that leads back to itself is refused: its expansion never ends.
 */
import { AppError } from '../errors/app-error.ts'
import type { SvgLimits } from './svg-limits.ts'
import { styleReferences, type SelectorSubject } from './svg-stylesheet.ts'

export interface ElementNode {
  /** Local name, lower case. */
  readonly name: string
  /** Index of the parent element, -1 for a root. */
  readonly parent: number
  /** Lower case, as are classes and referenced ids: matching more than librsvg only over-counts. */
  readonly id: string | undefined
  readonly classes: readonly string[]
  /** Ids named by href and url(#id) in the element's own attributes. */
  readonly referencedIds: readonly string[]
  /** At least the number of vertices a marker would be drawn at; 1 for most elements. */
  readonly vertices: number
  readonly children: number[]
  /** Index of the last descendant: element `a` contains `b` when a <= b <= last(a). */
  last: number
}

const shown = (count: number) => (count < 1e21 ? String(count) : 'more than 10^21')

function tooLarge(detail: string): never {
  throw new AppError('IMAGE_TOO_LARGE', detail)
}

const expandsTo = (limits: SvgLimits, received: string) =>
  `expected an SVG whose references (<use>, markers, url(#id)) expand to at most ${limits.maxRenderedElements} drawn elements, received one that ${received}`

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

/** For each element, the elements it draws by reference. */
function resolveReferences(nodes: readonly ElementNode[], styleSheets: readonly string[], limits: SvgLimits) {
  const byId = indexBy(nodes, (node) => (node.id ? [node.id] : []))
  const targets = nodes.map((node) => node.referencedIds.flatMap((id) => byId.get(id) ?? []))
  const rules = styleSheets.flatMap(styleReferences)
  if (rules.length === 0) return targets
  const byClass = indexBy(nodes, (node) => node.classes)
  const byType = indexBy(nodes, (node) => [node.name])
  const everyElement = nodes.map((_, i) => i)
  const candidates = (subject: SelectorSubject) =>
    subject.by === 'any'
      ? everyElement
      : ({ id: byId, class: byClass, type: byType }[subject.by].get(subject.name) ?? [])
  let examined = 0
  for (const { subjects, ids } of rules) {
    const reached = ids.flatMap((id) => byId.get(id) ?? [])
    for (const element of reached.length > 0 ? subjects.flatMap(candidates) : []) {
      for (const target of reached) {
        // Every pair may be a drawn element, so their number is bounded like drawn elements.
        if (++examined > limits.maxRenderedElements) tooLarge(expandsTo(limits, 'expands to more'))
        // A rule reaching inside its own target (a marker's path styled with that marker) is a
        // loop librsvg skips, not an expansion.
        const inside = target <= element && element <= nodes[target]!.last
        if (!inside) targets[element]!.push(target)
      }
    }
  }
  return targets
}

const describe = (node: ElementNode) => (node.id ? `#${node.id}` : `<${node.name}>`)

/** Drawn elements and filter runs of the whole document, every reference expanded. */
function expand(nodes: readonly ElementNode[], targets: readonly number[][], limits: SvgLimits) {
  const drawn = new Float64Array(nodes.length)
  const runs = new Float64Array(nodes.length)
  const state = new Uint8Array(nodes.length) // 0 unseen, 1 being expanded, 2 measured
  const measure = (e: number) => {
    const node = nodes[e]!
    let total = 1
    let filterRuns = 0
    for (const child of node.children) {
      total += drawn[child]!
      filterRuns += runs[child]!
    }
    for (const t of targets[e]!) {
      const target = nodes[t]!
      const times = target.name === 'marker' ? node.vertices : 1
      total += times * drawn[t]!
      filterRuns += times * (runs[t]! + (target.name === 'filter' ? target.children.length : 0))
    }
    drawn[e] = total
    runs[e] = filterRuns
  }
  let total = 0
  let filterRuns = 0
  for (let root = 0; root < nodes.length; root++) {
    if (nodes[root]!.parent !== -1) continue
    // Depth-first without recursion: reference chains can be as long as the document.
    const stack = [{ e: root, next: 0, dependencies: [...nodes[root]!.children, ...targets[root]!] }]
    state[root] = 1
    while (stack.length > 0) {
      const frame = stack.at(-1)!
      const d = frame.dependencies[frame.next++]
      if (d === undefined) {
        measure(frame.e)
        state[frame.e] = 2
        stack.pop()
      } else if (state[d] === 1) {
        tooLarge(expandsTo(limits, `expands without end: ${describe(nodes[d]!)} refers back to itself`))
      } else if (state[d] === 0) {
        state[d] = 1
        stack.push({ e: d, next: 0, dependencies: [...nodes[d]!.children, ...targets[d]!] })
      }
    }
    total += drawn[root]!
    filterRuns += runs[root]!
  }
  return { total, filterRuns }
}

/** Throws IMAGE_TOO_LARGE when drawing the document would exceed `limits`. */
export function measureCost(
  nodes: readonly ElementNode[],
  styleSheets: readonly string[],
  limits: SvgLimits,
) {
  const { total, filterRuns } = expand(nodes, resolveReferences(nodes, styleSheets, limits), limits)
  if (total > limits.maxRenderedElements) tooLarge(expandsTo(limits, `expands to ${shown(total)}`))
  if (filterRuns > limits.maxFilterRuns) {
    tooLarge(
      `expected an SVG that runs at most ${limits.maxFilterRuns} filter primitives once its references are expanded, received one that runs ${shown(filterRuns)}`,
    )
  }
}

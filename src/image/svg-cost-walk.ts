/*
 * Measures what drawing an SVG costs: how many elements are drawn once every reference is
 * expanded, and how many filter primitives run. An href (<use>, feImage) draws its target's
 * subtree in place; a url(#id) draws its target for the element naming it: a marker at each of
 * its vertices, a pattern in each shape it paints, a clip path, mask or filter once. Each
 * element is measured once and its result reused, so the walk is linear in elements plus
 * references however large the expansion it computes. The counts over-estimate, never
 * under-estimate. A reference that leads back to itself is refused: its expansion never ends.
 */
import { AppError } from '../errors/app-error.ts'
import { resolveReferences, SHAPES, type ElementNode, type References } from './svg-cost-references.ts'
import type { SvgLimits } from './svg-limits.ts'

const shown = (count: number) => (count < 1e21 ? String(count) : 'more than 10^21')

function tooLarge(detail: string): never {
  throw new AppError('IMAGE_TOO_LARGE', detail)
}

const expandsTo = (limits: SvgLimits, received: string) =>
  `expected an SVG whose references (<use>, markers, url(#id)) expand to at most ${limits.maxRenderedElements} drawn elements, received one that ${received}`

const describe = (node: ElementNode) => (node.id ? `#${node.id}` : `<${node.name}>`)

/** Drawn elements and filter runs of the whole document, every reference expanded. */
function expand(nodes: readonly ElementNode[], references: References, limits: SvgLimits) {
  const n = nodes.length
  const drawn = new Float64Array(n)
  const runs = new Float64Array(n)
  const vertices = new Float64Array(n) // drawn within the element, href copies included
  const shapes = new Float64Array(n) // likewise
  const state = new Uint8Array(n) // 0 unseen, 1 being expanded, 2 measured
  const measure = (e: number) => {
    const node = nodes[e]!
    let [total, filterRuns, v, s] = [1, 0, node.vertices, SHAPES.has(node.name) ? 1 : 0]
    for (const d of [...node.children, ...references.href[e]!]) {
      total += drawn[d]!
      filterRuns += runs[d]!
      v += vertices[d]!
      s += shapes[d]!
    }
    for (const t of references.url[e]!) {
      const target = nodes[t]!
      const times = target.name === 'marker' ? v : target.name === 'pattern' ? s : 1
      total += times * drawn[t]!
      filterRuns += times * (runs[t]! + (target.name === 'filter' ? target.children.length : 0))
    }
    ;[drawn[e], runs[e], vertices[e], shapes[e]] = [total, filterRuns, v, s]
  }
  const dependencies = (e: number) => [...nodes[e]!.children, ...references.href[e]!, ...references.url[e]!]
  let total = 0
  let filterRuns = 0
  for (let root = 0; root < n; root++) {
    if (nodes[root]!.parent !== -1) continue
    // Depth-first without recursion: reference chains can be as long as the document.
    const stack = [{ e: root, next: 0, dependencies: dependencies(root) }]
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
        stack.push({ e: d, next: 0, dependencies: dependencies(d) })
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
  // Each reference a style sheet or inheritance adds may be a drawn element: bound them alike.
  let added = 0
  const references = resolveReferences(nodes, styleSheets, () => {
    if (++added > limits.maxRenderedElements) tooLarge(expandsTo(limits, 'expands to more'))
  })
  const { total, filterRuns } = expand(nodes, references, limits)
  if (total > limits.maxRenderedElements) tooLarge(expandsTo(limits, `expands to ${shown(total)}`))
  if (filterRuns > limits.maxFilterRuns) {
    tooLarge(
      `expected an SVG that runs at most ${limits.maxFilterRuns} filter primitives once its references are expanded, received one that runs ${shown(filterRuns)}`,
    )
  }
}

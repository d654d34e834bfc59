/*
 * Measures what drawing an SVG costs: how many elements are drawn once every reference is
 * expanded, and how many filter primitives run. An href (<use>, feImage) draws its target's
 * subtree in place; a url(#id) draws its target for the element naming it: a marker at each of
 * its vertices, a pattern in each shape it paints, a clip path, mask or filter once. Each
 * element is measured once and its result reused, so the walk is linear in elements plus
 * references however large the expansion it computes. The counts over-estimate, never
 * under-estimate. A reference that leads back to itself is refused: its expansion never ends.
 */
import { AppError } from '../../errors/app-error.ts'
import { resolveReferences, SHAPES, type ElementNode, type References } from './cost-references.ts'
import type { SvgLimits } from './limits.ts'

const shown = (count: number) => (count < 1e21 ? String(count) : 'more than 10^21')

function tooLarge(detail: string): never {
  throw new AppError('IMAGE_TOO_LARGE', detail)
}

const expandsTo = (limits: SvgLimits, received: string) =>
  `expected an SVG whose references (<use>, markers, url(#id)) expand to at most ${limits.maxRenderedElements} drawn elements, received one that ${received}`

const describe = (node: ElementNode) => (node.id ? `#${node.id}` : `<${node.name}>`)

/** What drawing costs, summed over the whole document with every reference expanded. */
interface Totals {
  elements: number
  vertices: number
  characters: number
  filterRuns: number
}

function expand(nodes: readonly ElementNode[], references: References, limits: SvgLimits): Totals {
  const n = nodes.length
  const elements = new Float64Array(n)
  const drawnVertices = new Float64Array(n)
  const characters = new Float64Array(n)
  const filterRuns = new Float64Array(n)
  // What a marker or pattern named here reaches: vertices and shapes drawn within the element
  // and its href copies, not inside the markers and patterns it names.
  const [vertices, shapes] = [new Float64Array(n), new Float64Array(n)]
  const measure = (e: number) => {
    const node = nodes[e]!
    let [total, v, c, runs, reach, s] = [
      1,
      node.vertices,
      node.characters,
      0,
      node.vertices,
      +SHAPES.has(node.name),
    ]
    const add = (d: number, times: number) => {
      total += times * elements[d]!
      v += times * drawnVertices[d]!
      c += times * characters[d]!
      runs += times * filterRuns[d]!
    }
    for (const list of [node.children, references.href[e]!]) {
      for (const d of list) {
        add(d, 1)
        reach += vertices[d]!
        s += shapes[d]!
      }
    }
    for (const t of references.url[e]!) {
      const target = nodes[t]!
      const times = target.name === 'marker' ? reach : target.name === 'pattern' ? s : 1
      add(t, times)
      if (target.name === 'filter') runs += times * target.children.length
    }
    ;[elements[e], drawnVertices[e], characters[e], filterRuns[e], vertices[e], shapes[e]] = [
      total,
      v,
      c,
      runs,
      reach,
      s,
    ]
  }
  const hasReferences = (e: number) => references.href[e]!.length + references.url[e]!.length > 0
  const dependencies = (e: number) =>
    hasReferences(e)
      ? [...nodes[e]!.children, ...references.href[e]!, ...references.url[e]!]
      : nodes[e]!.children
  const state = new Uint8Array(n) // 0 unseen, 1 being expanded, 2 measured
  const whole: Totals = { elements: 0, vertices: 0, characters: 0, filterRuns: 0 }
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
    whole.elements += elements[root]!
    whole.vertices += drawnVertices[root]!
    whole.characters += characters[root]!
    whole.filterRuns += filterRuns[root]!
  }
  return whole
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
  const whole = expand(nodes, references, limits)
  if (whole.elements > limits.maxRenderedElements)
    tooLarge(expandsTo(limits, `expands to ${shown(whole.elements)}`))
  const over = (limit: number, received: number, verb: string, what: string) => {
    if (received <= limit) return
    tooLarge(
      `expected an SVG that ${verb}s at most ${limit} ${what} once its references are expanded, received one that ${verb}s ${shown(received)}`,
    )
  }
  over(limits.maxRenderedVertices, whole.vertices, 'draw', 'path vertices (numbers and commands)')
  over(limits.maxRenderedTextCharacters, whole.characters, 'draw', 'characters of text')
  over(limits.maxFilterRuns, whole.filterRuns, 'run', 'filter primitives')
}

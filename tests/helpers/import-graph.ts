import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/*
 * The import graph of a source tree, type-only imports included: a cycle through `import type`
 * still ties two modules together for whoever reads or moves them. Only relative specifiers
 * count; packages and non-TypeScript files (locales, wasm) are leaves.
 */

/** import … from '…', import '…', export … from '…', import('…'): the specifier of each. */
const SPECIFIERS =
  /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** Comments are dropped first, so an example in a comment is not an import. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
}

/** `import type …` and `export type … from`: erased when the code runs. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s/

export function importsOf(file: string, runtimeOnly = false): string[] {
  const text = stripComments(readFileSync(file, 'utf8'))
  const found: string[] = []
  for (const match of text.matchAll(SPECIFIERS)) {
    if (runtimeOnly && TYPE_ONLY.test(match[0].replace(/^[\s;}]/, ''))) continue
    const specifier = match[1] ?? match[2] ?? match[3]!
    if (!specifier.startsWith('.') || !/\.tsx?$/.test(specifier)) continue
    found.push(resolve(dirname(file), specifier))
  }
  return found
}

/** Edges from each file under `root` to the files it imports, inside `root` only. */
export function importGraph(root: string, runtimeOnly = false): Map<string, string[]> {
  const files = new Set(sourceFiles(root))
  return new Map(
    [...files].map((file) => [file, importsOf(file, runtimeOnly).filter((target) => files.has(target))]),
  )
}

/** `@import '…'` in the stylesheets under `root`: edges from each to the stylesheets it pulls in. */
export function styleGraph(root: string): Map<string, string[]> {
  const sheets = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return sheets(path)
      return name.endsWith('.css') ? [path] : []
    })
  return new Map(
    sheets(root).map((file) => {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
      const targets = [...text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g)].map((m) =>
        resolve(dirname(file), m[1]!),
      )
      return [file, targets]
    }),
  )
}

/** Every file `start` loads when it runs, itself included. */
export function loadedBy(start: string, runtimeGraph: Map<string, string[]>): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of runtimeGraph.get(file) ?? []) visit(next)
  }
  visit(start)
  return seen
}

/** The packages and non-TypeScript files (JSON, wasm) a file imports when it runs. */
export function leavesOf(file: string): string[] {
  const text = stripComments(readFileSync(file, 'utf8'))
  return [...text.matchAll(SPECIFIERS)]
    .filter((match) => !TYPE_ONLY.test(match[0].replace(/^[\s;}]/, '')))
    .map((match) => match[1] ?? match[2] ?? match[3]!)
    .filter((specifier) => !/^\.{1,2}\/.*\.tsx?$/.test(specifier))
}

/**
 * The graph seen from each folder: its files and its sub-folders (each one node) and the edges
 * between them. An import from a/b/x.ts to a/c.ts is an edge b/ -> c.ts inside a/. A cycle at
 * any level means two parts lean on each other, even when no single file imports itself back.
 */
export function siblingGraphs(
  root: string,
  graph: Map<string, string[]>,
): Map<string, Map<string, Set<string>>> {
  const levels = new Map<string, Map<string, Set<string>>>()
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = relative(root, from).split(sep)
      const b = relative(root, to).split(sep)
      let depth = 0
      while (depth < a.length - 1 && depth < b.length - 1 && a[depth] === b[depth]) depth++
      const folder = a.slice(0, depth).join('/') || '.'
      const node = (parts: string[]) => (parts.length - 1 > depth ? `${parts[depth]}/` : parts[depth]!)
      const edges = levels.get(folder) ?? new Map<string, Set<string>>()
      levels.set(folder, edges)
      const source = edges.get(node(a)) ?? new Set<string>()
      edges.set(node(a), source)
      if (node(a) !== node(b)) source.add(node(b))
    }
  }
  return levels
}

/** Every strongly connected component of more than one node, or with an edge to itself. */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const lowlinks = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((set) => [...set])])
  const visit = (node: string) => {
    indices.set(node, index)
    lowlinks.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next)
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!))
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!))
    }
    if (lowlinks.get(node) !== indices.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort())
  }
  for (const node of nodes) if (!indices.has(node)) visit(node)
  return found
}

import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import {
  cycles,
  importGraph,
  importsOf,
  leavesOf,
  loadedBy,
  siblingGraphs,
  sourceFiles,
  styleGraph,
} from '../helpers/import-graph.ts'
import { ROOT } from '../helpers/paths.ts'

const SRC = join(ROOT, 'src')
const graph = importGraph(SRC)
const rel = (path: string) => relative(SRC, path)

/** Every import cycle under `root`, at any level: between files, or between folders. */
function cyclesUnder(root: string, graph: Map<string, string[]>): string[] {
  const found: string[] = []
  for (const [folder, edges] of siblingGraphs(root, graph))
    for (const cycle of cycles(edges)) found.push(`${folder}: ${cycle.join(' <-> ')}`)
  return found
}

/** Imports that reach into a folder with an index.ts from outside it, other than through it. */
function enteredAround(root: string, graph: Map<string, string[]>): string[] {
  const rel = (path: string) => relative(root, path)
  const entered: string[] = []
  for (const [from, targets] of graph) {
    for (const to of targets) {
      // The nearest folder of `to` with an entry that `from` is outside of.
      for (let dir = dirname(to); dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
        const entry = join(dir, 'index.ts')
        if (!existsSync(entry) || from.startsWith(dir + '/')) continue
        if (to !== entry) entered.push(`${rel(from)} -> ${rel(to)} (enter through ${rel(entry)})`)
        break
      }
    }
  }
  return entered
}

/** Imports from files under `root` to files outside it and outside every folder of `allowed`. */
function importsLeaving(root: string, allowed: readonly string[]): string[] {
  const inside = (to: string) => [root, ...allowed].some((dir) => to.startsWith(dir + '/'))
  return sourceFiles(root).flatMap((file) =>
    importsOf(file)
      .filter((to) => !inside(to))
      .map((to) => `${relative(ROOT, file)} -> ${relative(ROOT, to)}`),
  )
}

/** Imports into `root` from the files under each folder of `from`. */
function importsInto(root: string, from: readonly string[]): string[] {
  return from.flatMap((dir) =>
    sourceFiles(dir).flatMap((file) =>
      importsOf(file)
        .filter((to) => to.startsWith(root + '/'))
        .map((to) => `${relative(ROOT, file)} -> ${relative(ROOT, to)}`),
    ),
  )
}

/** What every tree checked here holds to: no cycle at any level, and folders entered through their index.ts. */
function dependsOneWay(root: string, graph: Map<string, string[]>) {
  test('has no import cycle at any level, type-only imports (and stylesheets) included', () => {
    expect(cyclesUnder(root, graph)).toEqual([])
  })

  test('a folder with an index.ts is imported only through it from outside', () => {
    expect(enteredAround(root, graph)).toEqual([])
  })
}

/** Edges between two parts of a tree (`partOf`) that `allowed` does not permit. */
function crossings(
  root: string,
  graph: Map<string, string[]>,
  partOf: (file: string) => string,
  allowed: (from: string, to: string) => boolean,
): string[] {
  const found: string[] = []
  for (const [from, targets] of graph)
    for (const to of targets) {
      const [a, b] = [partOf(from), partOf(to)]
      if (a !== b && !allowed(a, b)) found.push(`${relative(root, from)} -> ${relative(root, to)}`)
    }
  return found
}

describe('the source tree depends one way', () => dependsOneWay(SRC, graph))

const BENCH = join(ROOT, 'bench')
const benchGraph = importGraph(BENCH)
/** The first folder under bench/ a file is in (its study, or common/), or '' for bench/'s own files. */
const studyOf = (file: string) => {
  const parts = relative(BENCH, file).split('/')
  return parts.length > 1 ? parts[0]! : ''
}

describe('the benchmarks depend one way', () => {
  dependsOneWay(BENCH, benchGraph)

  test('a study imports only itself and bench/common/, and common/ no study', () => {
    // bench/'s own files (run.ts, what npm run bench runs) are the only ones that put studies together.
    expect(crossings(BENCH, benchGraph, studyOf, (from, to) => from === '' || to === 'common')).toEqual([])
  })

  test('import nothing outside bench/ but src/ and tests/helpers/, and src/ and tests/ import no benchmark', () => {
    expect(importsLeaving(BENCH, [SRC, join(ROOT, 'tests/helpers')])).toEqual([])
    expect(importsInto(BENCH, [SRC, join(ROOT, 'tests')])).toEqual([])
  })
})

/** What carries message keys and leaves words to the edge: the image core and what it validates with. */
const CORE = ['image', 'options', 'errors', 'formats']

test('the image core loads no translations: neither i18next nor a locale file, at run time', () => {
  const runtime = importGraph(SRC, true)
  const translating = (file: string) =>
    leavesOf(file).some((leaf) => leaf === 'i18next' || leaf.includes('locales/'))
  const found: string[] = []
  for (const file of CORE.flatMap((dir) => sourceFiles(join(SRC, dir)))) {
    const through = [...loadedBy(file, runtime)].filter(translating)
    if (through.length > 0) found.push(`${rel(file)} loads ${through.map(rel).join(', ')}`)
  }
  expect(found).toEqual([])
})

const STATIC = join(ROOT, 'static')
/** The browser code's imports, and the stylesheets' @import edges beside them. */
const staticGraph = new Map([...importGraph(STATIC), ...styleGraph(STATIC)])
/** The first folder under static/ a file is in: kit, tools, docs or examples. */
const areaOf = (file: string) => relative(STATIC, file).split('/')[0]!

describe('the browser code depends one way', () => {
  dependsOneWay(STATIC, staticGraph)

  test('the tools and the docs import the UI kit, never each other, and the kit neither', () => {
    expect(crossings(STATIC, staticGraph, areaOf, (_, to) => to === 'kit')).toEqual([])
    // The graph is read: both sites do lean on the kit.
    const intoKit = (area: string) =>
      [...staticGraph].some(
        ([from, targets]) => areaOf(from) === area && targets.some((to) => areaOf(to) === 'kit'),
      )
    expect([intoKit('tools'), intoKit('docs')]).toEqual([true, true])
  })

  test('imports nothing outside static/ but src/, and src/ imports no browser code', () => {
    expect(importsLeaving(STATIC, [SRC])).toEqual([])
    expect(importsInto(STATIC, [SRC])).toEqual([])
  })
})

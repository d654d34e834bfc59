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

describe('the source tree depends one way', () => {
  test('has no import cycle at any level, type-only imports included', () => {
    expect(cyclesUnder(SRC, graph)).toEqual([])
  })

  test('a folder with an index.ts is imported only through it from outside', () => {
    expect(enteredAround(SRC, graph)).toEqual([])
  })
})

const BENCH = join(ROOT, 'bench')
const benchGraph = importGraph(BENCH)
/** The first folder under bench/ a file is in (its study, or common/), or '' for bench/'s own files. */
const studyOf = (file: string) => {
  const parts = relative(BENCH, file).split('/')
  return parts.length > 1 ? parts[0]! : ''
}

describe('the benchmarks depend one way', () => {
  test('have no import cycle at any level, type-only imports included', () => {
    expect(cyclesUnder(BENCH, benchGraph)).toEqual([])
  })

  test('a folder with an index.ts is imported only through it from outside', () => {
    expect(enteredAround(BENCH, benchGraph)).toEqual([])
  })

  test('a study imports only itself and bench/common/, and common/ no study', () => {
    // bench/'s own files (run.ts, what npm run bench runs) are the only ones that put studies together.
    const crossing: string[] = []
    for (const [from, targets] of benchGraph)
      for (const to of targets) {
        const [a, b] = [studyOf(from), studyOf(to)]
        if (a !== '' && a !== b && b !== 'common')
          crossing.push(`${relative(BENCH, from)} -> ${relative(BENCH, to)}`)
      }
    expect(crossing).toEqual([])
  })

  test('import nothing outside bench/ but src/ and tests/helpers/, and src/ and tests/ import no benchmark', () => {
    const outside: string[] = []
    for (const file of sourceFiles(BENCH))
      for (const to of importsOf(file))
        if (
          !to.startsWith(BENCH + '/') &&
          !to.startsWith(SRC + '/') &&
          !to.startsWith(join(ROOT, 'tests/helpers/'))
        )
          outside.push(`${relative(ROOT, file)} -> ${relative(ROOT, to)}`)
    for (const file of [...sourceFiles(SRC), ...sourceFiles(join(ROOT, 'tests'))])
      for (const to of importsOf(file))
        if (to.startsWith(BENCH + '/')) outside.push(`${relative(ROOT, file)} -> ${relative(ROOT, to)}`)
    expect(outside).toEqual([])
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

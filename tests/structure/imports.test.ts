import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import {
  cycles,
  importGraph,
  leavesOf,
  loadedBy,
  siblingGraphs,
  sourceFiles,
} from '../helpers/import-graph.ts'
import { ROOT } from '../helpers/paths.ts'

const SRC = join(ROOT, 'src')
const graph = importGraph(SRC)
const rel = (path: string) => relative(SRC, path)

describe('the source tree depends one way', () => {
  test('has no import cycle at any level, type-only imports included', () => {
    const found: string[] = []
    for (const [folder, edges] of siblingGraphs(SRC, graph))
      for (const cycle of cycles(edges)) found.push(`${folder}: ${cycle.join(' <-> ')}`)
    expect(found).toEqual([])
  })

  test('a folder with an index.ts is imported only through it from outside', () => {
    const entered: string[] = []
    for (const [from, targets] of graph) {
      for (const to of targets) {
        // The nearest folder of `to` with an entry that `from` is outside of.
        for (let dir = dirname(to); dir.startsWith(SRC) && dir !== SRC; dir = dirname(dir)) {
          const entry = join(dir, 'index.ts')
          if (!existsSync(entry) || from.startsWith(dir + '/')) continue
          if (to !== entry) entered.push(`${rel(from)} -> ${rel(to)} (enter through ${rel(entry)})`)
          break
        }
      }
    }
    expect(entered).toEqual([])
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

import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '../..')
export const FIXTURES = join(ROOT, 'tests/fixtures')
/**
 * The shared corpus beside the checkout; absent on a user's fresh clone. IMGAPI_TEST_CORPUS
 * names it where the checkout is not beside it (a git worktree elsewhere).
 */
export const CORPUS = process.env.IMGAPI_TEST_CORPUS || resolve(ROOT, '../shared/corpus/public')
/**
 * IMGAPI_TEST_WITHOUT_CORPUS=1 runs the suites as a user's fresh clone would, with the corpus out
 * of reach (CI runs the README's test command that way too, so a plain clone's run stays green).
 */
export const HAS_CORPUS = !process.env.IMGAPI_TEST_WITHOUT_CORPUS && existsSync(join(CORPUS, 'MANIFEST.tsv'))

export interface ManifestRow {
  readonly file: string
  readonly bytes: number
  readonly format: string
  readonly width: number | undefined
  readonly height: number | undefined
  readonly notes: string
}

export function readManifest(dir: string): ManifestRow[] {
  const [, ...lines] = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n')
  return lines.map((line) => {
    const [file = '', bytes = '0', format = '', width = '-', height = '-', , , notes = ''] = line.split('\t')
    return {
      file,
      bytes: Number(bytes),
      format,
      width: width === '-' ? undefined : Number(width),
      height: height === '-' ? undefined : Number(height),
      notes,
    }
  })
}

export const fixture = (name: string) => Bun.file(join(FIXTURES, name)).bytes()
export const corpusFile = (name: string) => Bun.file(join(CORPUS, name)).bytes()

/** Says once, visibly, that corpus-wide suites were skipped and why. */
export function announceCorpusSkip(suite: string): void {
  if (!HAS_CORPUS)
    console.warn(
      `[skipped] ${suite}: ${process.env.IMGAPI_TEST_WITHOUT_CORPUS ? 'IMGAPI_TEST_WITHOUT_CORPUS is set' : `the shared corpus is not at ${CORPUS}`}`,
    )
}

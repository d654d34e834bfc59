/*
 * What the three smart-mode scripts share about the corpus images they compress: whether the
 * corpus is there, imgapi warmed up on the first image, and how the images that failed are
 * listed under a table.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS, corpusFile } from '../../tests/helpers/paths.ts'
import type { CorpusImage } from '../common/corpus.ts'
import { warmUpImgapi } from '../common/in-process.ts'

/** The line a script prints instead of its table when the corpus is absent; undefined when it is there. */
export const corpusAbsent = (script: string): string | undefined =>
  existsSync(join(CORPUS, 'MANIFEST.tsv')) ? undefined : `${script}: skipped, no corpus at ${CORPUS}`

/** imgapi warmed up on the first image, in each format, so that no codec's first use is timed. */
export async function warmUpOn(images: readonly CorpusImage[], formats: readonly string[]): Promise<void> {
  await warmUpImgapi(await corpusFile(images[0]!.file), formats)
}

/** The lines under a table that say which inputs were left out, and why. */
export function failedLines(failures: readonly string[]): string[] {
  return failures.length === 0
    ? []
    : [`left out, failed (${failures.length}):`, ...failures.map((f) => `  ${f}`)]
}

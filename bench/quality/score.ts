/*
 * Scores every output, imgapi's and the peers' alike, with one independent tool: one Python
 * process (ssim.py, scikit-image) reading the whole list of file pairs.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PYTHON, runTool } from './tools.ts'

const SCORER = resolve(import.meta.dir, 'ssim.py')

export interface ScorePair {
  readonly id: string
  readonly reference: string
  readonly candidate: string
}

export interface Scores {
  readonly ssim: ReadonlyMap<string, number>
  readonly errors: readonly string[]
  readonly versions: Readonly<Record<string, string>>
  readonly wallMs: number
}

interface ScorerAnswer {
  readonly scores: readonly { id: string; ssim?: number; error?: string }[]
  readonly versions: Record<string, string>
}

export async function scoreAll(pairs: readonly ScorePair[], dir: string): Promise<Scores> {
  const list = join(dir, 'pairs.json')
  writeFileSync(list, JSON.stringify(pairs))
  const run = await runTool([PYTHON, SCORER, list])
  const answer = JSON.parse(new TextDecoder().decode(run.stdout)) as ScorerAnswer
  const ssim = new Map<string, number>()
  const errors: string[] = []
  for (const score of answer.scores) {
    if (score.ssim !== undefined) ssim.set(score.id, score.ssim)
    else errors.push(`${score.id}: ${score.error ?? 'no score'}`)
  }
  for (const pair of pairs)
    if (!ssim.has(pair.id) && !errors.some((e) => e.startsWith(pair.id)))
      errors.push(`${pair.id}: not scored`)
  return { ssim, errors, versions: answer.versions, wallMs: run.wallMs }
}

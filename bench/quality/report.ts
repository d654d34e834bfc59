/*
 * What a quality.ts run concludes, as the printed report and as the results file: the
 * comparisons, the goals and the facts (machine, tool versions, method) they depend on.
 */
import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { format, resolveConfig } from 'prettier'
import { AUTO_LEVELS } from '../../src/image/search/index.ts'
import { engineVersions } from '../../src/image/sharp.ts'
import { compareAll, type Output } from './compare.ts'
import { FORMATS_BY_CLASS, IMAGE_CLASSES } from '../common/corpus.ts'
import type { PreparedImage } from './prepare.ts'
import { costGoal, costRatios, levelGoal, sizeGoal, summarise, targetGoal } from './goals.ts'
import { PEERS } from './peers.ts'
import { classTable, costLines, disagreementLines, goalLines, summaryTable } from './print.ts'
import { TARGET_SHARE } from './run.ts'
import { toolVersions } from './tools.ts'

export interface RunFacts {
  readonly quick: boolean
  readonly jobs: number
  readonly otherCpus: number
  readonly seconds: number
  readonly scorer: Readonly<Record<string, string>>
  readonly skipped: readonly string[]
  readonly images: readonly PreparedImage[]
  readonly failures: readonly string[]
}

export function analyse(outputs: readonly Output[]) {
  const comparisons = compareAll(outputs)
  const summary = summarise(comparisons)
  const autoCost = costRatios(outputs)
  const goals = [sizeGoal(summary), targetGoal(outputs), levelGoal(outputs), costGoal(autoCost)]
  return { comparisons, summary, autoCost, goals }
}

type Analysis = ReturnType<typeof analyse>

export function reportText(outputs: readonly Output[], analysis: Analysis, facts: RunFacts): string {
  const { comparisons, summary, goals } = analysis
  const versions = engineVersions()
  return [
    `## Bytes at equal-or-better SSIM (${facts.quick ? 'quick' : 'full'} run)`,
    '',
    'Cells: imgapi quality, bytes (maxBytes: % of the target), scikit-image SSIM, and imgapi bytes / the bytes of',
    'the best peer at that SSIM, interpolated along its ladder (log bytes against log(1 - SSIM)); "<" or ">":',
    "past the top or the bottom of the best peer's ladder, so the true ratio is lower or higher than shown.",
    '',
    ...IMAGE_CLASSES.flatMap((imageClass) => classTable(imageClass, outputs, comparisons)),
    '## Median imgapi bytes / peer bytes at equal-or-better SSIM (below 1: imgapi is smaller)',
    '',
    ...summaryTable(summary),
    '',
    '## Goals',
    '',
    ...goalLines(goals),
    '',
    ...disagreementLines(outputs),
    '',
    'Cost: median per imgapi request (in-process, one at a time) or per peer rung (child rusage):',
    ...costLines(outputs),
    '',
    `Machine: ${availableParallelism()} CPUs, bun ${Bun.version}, sharp ${versions.sharp}, libvips ${versions.libvips}; ${facts.jobs} peer tools at once; other work kept ${facts.otherCpus.toFixed(2)} CPUs busy on average; ${(facts.seconds / 60).toFixed(1)} min.`,
  ].join('\n')
}

const round = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? value : Number(value.toFixed(digits))

const compact = (o: Output) => ({
  ...o,
  wallMs: round(o.wallMs, 1),
  cpuMs: round(o.cpuMs, 1),
  ssim: round(o.ssim, 6),
  imgapiSsim: round(o.imgapiSsim, 6),
})

const method = (quick: boolean) => ({
  input:
    'decoded, auto-oriented, sRGB, at most 2 MP (lanczos3), 8-bit PNG (level 9); jpegoptim reads a q95 4:4:4 JPEG of it',
  similarity:
    'skimage structural_similarity(gaussian_weights, sigma 1.5, population covariance, data_range 255) on BT.601 luma at most 1 MP (Pillow Lanczos), alpha on white; decoders dwebp, avifdec, Pillow',
  interpolation: "along each peer's frontier, log(bytes) linear in log(1 - SSIM); a ladder's ends are bounds",
  targetShareOfPng: TARGET_SHARE,
  autoLevels: AUTO_LEVELS,
  formatsByClass: FORMATS_BY_CLASS,
  peers: PEERS.map((peer) => ({
    name: peer.name,
    format: peer.format,
    ladder: quick ? peer.quick : peer.full,
    example: peer
      .command({ png: 'in.png', jpeg: 'in.q95.jpg' } as PreparedImage, peer.full[0]!, 'out')
      .join(' '),
  })),
})

/** The results file, formatted as the repository's Prettier settings would leave it. */
export async function writeResults(
  file: string,
  outputs: readonly Output[],
  analysis: Analysis,
  facts: RunFacts,
): Promise<void> {
  const { summary, goals, autoCost } = analysis
  const results = {
    mode: facts.quick ? 'quick' : 'full',
    machine: {
      cpus: availableParallelism(),
      bun: Bun.version,
      ...engineVersions(),
      otherCpus: facts.otherCpus,
    },
    run: { seconds: Math.round(facts.seconds), peerJobs: facts.jobs },
    tools: { ...toolVersions(), scorer: facts.scorer },
    method: method(facts.quick),
    skipped: facts.skipped,
    images: facts.images.map(({ png: _png, jpeg: _jpeg, ...image }) => image),
    summary,
    goals,
    autoCost,
    failures: facts.failures,
    outputs: outputs.map(compact),
  }
  const options = (await resolveConfig(file)) ?? {}
  writeFileSync(file, await format(JSON.stringify(results), { ...options, filepath: file }))
}

/*
 * Everything encode-cost.ts prints and saves: the two tables, then the fits, checks and
 * machine facts that say how far the tables can be trusted.
 */
import type { Budget } from './budget.ts'
import type { ContentTiming } from './checks.ts'
import type { MemoryResult } from './memory.ts'
import { memoryTable, timingTable, type MemoryFit } from './report.ts'
import type { ThreadTiming } from './threads.ts'
import type { SeriesTiming } from './timing.ts'
import { median } from '../common/figures.ts'

export interface Results {
  readonly mode: string
  readonly machine: {
    readonly cpus: number
    readonly bun: string
    readonly sharp: string
    readonly libvips: string
    readonly libvipsThreads: number
    readonly otherCpus: number
  }
  readonly budgets: { readonly timing: Budget; readonly memory: Budget }
  readonly mainPhoto?: string
  readonly timing: readonly SeriesTiming[]
  readonly content: readonly ContentTiming[]
  readonly threads: readonly ThreadTiming[]
  readonly memory: readonly MemoryResult[]
  readonly memoryFits: readonly MemoryFit[]
}

function notes({ machine: m, content, threads, memory, memoryFits: fits }: Results): string[] {
  const base = median(memory.map((r) => r.baselineMiB))
  return [
    `Memory base: a fresh process with sharp loaded and the input read holds ${base.toFixed(0)} MiB (median).`,
    ...fits.map(
      (f) =>
        `- fit ${f.pipeline}: ${f.fixed.toFixed(0)} MiB + ${f.perMegapixel.toFixed(1)} MiB/MP (${f.sizes} sizes)`,
    ),
    ...content.map((c) => {
      const ratio = c.ratioToMain === undefined ? '' : `, ×${c.ratioToMain.toFixed(2)} the main photo`
      const size = `${c.megapixels.toFixed(1)} MP`
      return `- content ${c.subject}, ${c.encode} at ${size}: ${c.cpuSecondsPerMegapixel.toFixed(3)} CPU s/MP, ${c.medianSeconds.toFixed(2)} s wall (${c.runs.length})${ratio}`
    }),
    ...threads.map(
      (t) =>
        `- threads ${t.encode} at ${t.megapixels.toFixed(1)} MP, ${t.libvipsThreads} libvips thread(s): ${t.medianSeconds.toFixed(2)} s wall, ${t.medianCpuSeconds.toFixed(2)} s CPU, CPU ÷ wall ${t.cpuPerWall.toFixed(2)}, busy threads ${t.busyThreads}`,
    ),
    `Machine: ${m.cpus} CPUs, bun ${m.bun}, sharp ${m.sharp}, libvips ${m.libvips}, ${m.libvipsThreads} libvips thread per image; other work kept ${m.otherCpus.toFixed(2)} of ${m.cpus} CPUs busy on average.`,
  ]
}

export function formatReport(results: Results): string {
  return [
    `## Encode time: seconds per megapixel (${results.mode} run, ${results.mainPhoto})`,
    '',
    'Cells: seconds per megapixel, median wall / median CPU (runs). Fits: least squares of the median seconds over the sizes.',
    'CPU time is what one free core takes; wall time grows with other work on the machine. "~": extrapolated along the fit.',
    '"CPU large ÷ small": CPU s/MP at the largest size over the smallest (1 = linear). "CPU ÷ wall": highest over the sizes.',
    '',
    timingTable(results.timing),
    '',
    '## Peak memory: rise of VmHWM over a fresh process, per pipeline',
    '',
    memoryTable(results.memory),
    '',
    ...notes(results),
  ].join('\n')
}

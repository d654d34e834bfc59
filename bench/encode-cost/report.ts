/*
 * The two markdown tables of encode-cost.ts, and the straight-line fits behind them: a
 * fixed part plus a part per megapixel is what the limits and the memory formula need.
 */
import type { MemoryResult } from './memory.ts'
import type { SeriesTiming, SizeTiming } from './timing.ts'

export interface LineFit {
  readonly fixed: number
  readonly perMegapixel: number
}

export interface SeriesSummary {
  readonly label: string
  readonly fit?: LineFit
  /**
   * The same fit on CPU seconds: other work on a shared machine stretches wall time but hardly
   * CPU time, and with one thread per encode CPU time is the wall time on an idle core.
   */
  readonly cpuFit?: LineFit
  /** CPU seconds per megapixel at the largest measured size over the smallest: 1 is linear. */
  readonly largeOverSmall?: number
  readonly maxCpuPerWall: number
  readonly at16: { readonly seconds: number; readonly cpuSeconds: number; readonly measured: boolean }
}

export interface MemoryFit extends LineFit {
  readonly pipeline: string
  readonly sizes: number
}

const REFERENCE_MEGAPIXELS = 16

/** Least squares through (megapixels, value); undefined below two distinct sizes. */
export function fitLine(points: readonly (readonly [number, number])[]): LineFit | undefined {
  if (new Set(points.map(([x]) => x)).size < 2) return undefined
  const n = points.length
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0)
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0)
  const perMegapixel = sxy / sxx
  return { fixed: meanY - perMegapixel * meanX, perMegapixel }
}

/** Along the fit, or per megapixel from the one size measured. */
function extrapolate(fit: LineFit | undefined, perMegapixel: number | undefined): number {
  if (fit) return fit.fixed + fit.perMegapixel * REFERENCE_MEGAPIXELS
  return (perMegapixel ?? Number.NaN) * REFERENCE_MEGAPIXELS
}

const nearReference = (size: SizeTiming) => Math.abs(size.megapixels - REFERENCE_MEGAPIXELS) < 0.5

export function summariseSeries(series: SeriesTiming): SeriesSummary {
  const { sizes } = series
  const fit = fitLine(sizes.map((size) => [size.megapixels, size.medianSeconds]))
  const cpuFit = fitLine(sizes.map((size) => [size.megapixels, size.medianCpuSeconds]))
  const first = sizes[0]
  const last = sizes.at(-1)
  const measured = sizes.find(nearReference)
  const at16 = measured
    ? { seconds: measured.medianSeconds, cpuSeconds: measured.medianCpuSeconds, measured: true }
    : {
        seconds: extrapolate(fit, last?.secondsPerMegapixel),
        cpuSeconds: extrapolate(cpuFit, last?.cpuSecondsPerMegapixel),
        measured: false,
      }
  return {
    label: series.label,
    fit,
    cpuFit,
    largeOverSmall:
      first && last && last !== first
        ? last.cpuSecondsPerMegapixel / first.cpuSecondsPerMegapixel
        : undefined,
    maxCpuPerWall: Math.max(...sizes.map((size) => size.cpuPerWall)),
    at16,
  }
}

const sizeKey = (megapixels: number) => megapixels.toFixed(1)
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
const rule = (columns: number) => row(Array.from({ length: columns }, () => '---'))

const formatFit = (fit: LineFit | undefined) =>
  fit ? `${fit.fixed.toFixed(2)} + ${fit.perMegapixel.toFixed(3)}·MP` : '—'

/** Measured at 16 MP, or "~" extrapolated along the fit; CPU seconds in brackets. */
function formatAt16({ at16 }: SeriesSummary): string {
  const cpu = Number.isNaN(at16.cpuSeconds) ? '' : ` (${at16.cpuSeconds.toFixed(1)})`
  return `${at16.measured ? '' : '~'}${at16.seconds.toFixed(1)} s${cpu}`
}

export function timingTable(allSeries: readonly SeriesTiming[]): string {
  const keys = [...new Set(allSeries.flatMap((s) => s.sizes.map((size) => size.megapixels)))]
    .sort((a, b) => a - b)
    .map(sizeKey)
  const sizeHeaders = keys.map((key) => `@ ${key} MP`)
  const header = [
    'encode',
    ...sizeHeaders,
    'wall fit: s + s/MP',
    'CPU fit',
    'CPU large ÷ small',
    'CPU ÷ wall',
    '@ 16 MP (CPU)',
  ]
  const lines = allSeries.map((series) => {
    const summary = summariseSeries(series)
    const cells = keys.map((key) => {
      const size = series.sizes.find((s) => sizeKey(s.megapixels) === key)
      if (!size) return '—'
      return `${size.secondsPerMegapixel.toFixed(3)} / ${size.cpuSecondsPerMegapixel.toFixed(3)} (${size.runs.length})`
    })
    const fits = [formatFit(summary.fit), formatFit(summary.cpuFit)]
    const ratio = summary.largeOverSmall?.toFixed(2) ?? '—'
    return row([
      series.label,
      ...cells,
      ...fits,
      ratio,
      summary.maxCpuPerWall.toFixed(2),
      formatAt16(summary),
    ])
  })
  return [row(header), rule(header.length), ...lines].join('\n')
}

export function memoryTable(results: readonly MemoryResult[]): string {
  const header = ['pipeline', 'input', 'in MP', 'out MP', 'peak RSS +MiB', 'MiB / MP', 'runs']
  const lines = results.map((r) =>
    row([
      r.pipeline,
      r.input,
      r.inputMegapixels.toFixed(2),
      r.outputMegapixels.toFixed(2),
      r.increaseMiB.toFixed(0),
      r.mibPerMegapixel.toFixed(1),
      String(r.runs.length),
    ]),
  )
  return [row(header), rule(header.length), ...lines].join('\n')
}

/** Per pipeline: peak rise ≈ fixed + perMegapixel × the larger of input and output megapixels. */
export function memoryFits(results: readonly MemoryResult[]): MemoryFit[] {
  const pipelines = [...new Set(results.map((r) => r.pipeline))]
  return pipelines.flatMap((pipeline) => {
    const mine = results.filter((r) => r.pipeline === pipeline)
    const fit = fitLine(mine.map((r) => [Math.max(r.inputMegapixels, r.outputMegapixels), r.increaseMiB]))
    return fit ? [{ pipeline, sizes: mine.length, ...fit }] : []
  })
}

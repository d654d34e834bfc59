/*
 * The tables quality.ts prints: one per image class, the summary per class and format,
 * the goals, how far imgapi's own SSIM strays from scikit-image's, and what the encodes cost.
 */
import { median } from '../common/figures.ts'
import type { Comparison, Output, Ratio } from './compare.ts'
import { IMAGE_CLASSES, type ImageClass } from '../common/corpus.ts'
import type { Goal, SummaryRow } from './goals.ts'

const COLUMNS = ['default', 'auto', 'auto-high', 'auto-medium', 'maxBytes'] as const
const CELL = 24

/** The columns' order, then anything else (lossless). */
const order = (setting: string) =>
  (COLUMNS.indexOf(setting as never) + COLUMNS.length + 1) % (COLUMNS.length + 1)
const kb = (bytes: number) => `${(bytes / 1000).toFixed(bytes < 100_000 ? 1 : 0)}K`
const marker = (r: Ratio) => (r.bound === 'below' ? '>' : r.bound === 'above' ? '<' : '×')
const ratioText = (r: Ratio | undefined) => (r ? `${marker(r)}${r.ratio.toFixed(2)}` : '-')
const ssimText = (ssim: number | undefined) => (ssim === undefined ? '-' : ssim.toFixed(4).replace(/^0/, ''))

function cell(output: Output | undefined, comparison: Comparison | undefined): string {
  if (!output) return ''
  if (output.error) return output.error.includes('TARGET_UNREACHABLE') ? 'unreachable' : 'error'
  const q = output.quality === undefined ? 'q-' : `q${output.quality}`
  const size = output.targetBytes
    ? `${((output.bytes / output.targetBytes) * 100).toFixed(0)}%T`
    : kb(output.bytes)
  return `${q} ${size} ${ssimText(output.ssim)} ${ratioText(comparison?.best)}`
}

export function classTable(
  imageClass: ImageClass,
  outputs: readonly Output[],
  comparisons: readonly Comparison[],
) {
  const mine = outputs.filter((o) => o.imageClass === imageClass && o.producer === 'imgapi')
  if (mine.length === 0) return []
  const byId = new Map(comparisons.map((c) => [c.output.id, c]))
  const rows = new Map<string, Map<string, Output>>()
  for (const o of mine) {
    const row = rows.get(`${o.image}|${o.format}`) ?? new Map<string, Output>()
    rows.set(`${o.image}|${o.format}`, row.set(o.setting === 'lossless' ? 'maxBytes' : o.setting, o))
  }
  const titles = COLUMNS.map((c) => (c === 'maxBytes' ? 'maxBytes (png: lossless)' : c).padEnd(CELL))
  const header = ('image'.padEnd(38) + 'fmt '.padEnd(5) + titles.join('')).trimEnd()
  const lines = [...rows].map(([key, row]) => {
    const [image = '', format = ''] = key.split('|')
    const cells = COLUMNS.map((column) => {
      const output = row.get(column)
      return cell(output, output && byId.get(output.id)).padEnd(CELL)
    })
    return (image.slice(0, 37).padEnd(38) + format.padEnd(5) + cells.join('')).trimEnd()
  })
  return [`### ${imageClass}`, header, ...lines, '']
}

export function summaryTable(rows: readonly SummaryRow[]): string[] {
  const lines = ['class      fmt  setting       n  ×best peer  (bounds)  per peer']
  const ordered = [...rows].sort(
    (a, b) =>
      IMAGE_CLASSES.indexOf(a.imageClass) - IMAGE_CLASSES.indexOf(b.imageClass) ||
      a.format.localeCompare(b.format) ||
      order(a.setting) - order(b.setting),
  )
  for (const row of ordered) {
    const peers = Object.entries(row.perPeer)
      .map(([peer, ratio]) => `${peer} ×${ratio.toFixed(2)}`)
      .join(', ')
    lines.push(
      `${row.imageClass.padEnd(11)}${row.format.padEnd(5)}${row.setting.padEnd(12)}${String(row.images).padStart(3)}  ${row.best.toFixed(3).padStart(9)}  ${String(row.bounded).padStart(8)}  ${peers}`,
    )
  }
  return lines
}

export function goalLines(goals: readonly Goal[]): string[] {
  return goals.flatMap((goal) => [
    `${goal.pass ? 'PASS' : 'FAIL'} ${goal.name}`,
    ...goal.lines.map((l) => `  ${l}`),
  ])
}

/** imgapi's own SSIM against scikit-image's on the same output, per format. */
export function disagreementLines(outputs: readonly Output[]): string[] {
  const both = outputs.filter((o) => o.imgapiSsim !== undefined && o.ssim !== undefined)
  if (both.length === 0) return ['no output carries both scores']
  const gap = (o: Output) => o.imgapiSsim! - o.ssim!
  const formats = [...new Set(both.map((o) => o.format))]
  const lines = formats.map((format) => {
    const gaps = both.filter((o) => o.format === format).map(gap)
    const largest = gaps.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0)
    return `  ${format}: median ${median(gaps).toFixed(4)}, largest ${largest.toFixed(4)} (${gaps.length} outputs)`
  })
  const worst = both.reduce((a, b) => (Math.abs(gap(b)) > Math.abs(gap(a)) ? b : a))
  return [
    `imgapi's SSIM minus scikit-image's on the same output (positive: imgapi rates it higher):`,
    ...lines,
    `  largest: ${worst.image} ${worst.format} ${worst.setting}: imgapi ${worst.imgapiSsim!.toFixed(4)}, skimage ${worst.ssim!.toFixed(4)}`,
  ]
}

/** Median wall and CPU per request (imgapi) or per rung (peers), per format, over the same images. */
export function costLines(outputs: readonly Output[]): string[] {
  const groups = new Map<string, Output[]>()
  for (const o of outputs) {
    if (o.error || !(o.producer !== 'imgapi' || o.setting === 'default' || o.setting === 'auto')) continue
    const key = `${o.format}|${o.producer === 'imgapi' ? `imgapi ${o.setting}` : o.producer}`
    groups.set(key, [...(groups.get(key) ?? []), o])
  }
  return [...groups].sort().map(([key, group]) => {
    const [format = '', who = ''] = key.split('|')
    const wall = median(group.map((o) => o.wallMs))
    const cpu = median(group.map((o) => o.cpuMs))
    return `  ${format.padEnd(5)}${who.padEnd(20)} wall ${wall.toFixed(0).padStart(6)} ms  CPU ${cpu.toFixed(0).padStart(6)} ms  (${group.length})`
  })
}

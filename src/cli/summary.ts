import { formatBytes } from './byte-sizes.ts'
import type { FileOutcome } from './file-report.ts'

/** The totals of a batch, and the table printed at its end. */
export interface Totals {
  files: number
  done: number
  failed: number
  bytesBefore: number
  bytesAfter: number
}

export const emptyTotals = (): Totals => ({ files: 0, done: 0, failed: 0, bytesBefore: 0, bytesAfter: 0 })

export function addOutcome(totals: Totals, outcome: FileOutcome): void {
  totals.files++
  if ('code' in outcome) {
    totals.failed++
    return
  }
  totals.done++
  totals.bytesBefore += outcome.result.inputBytes
  totals.bytesAfter += outcome.result.data.length
}

export const savedBytes = (totals: Totals) => totals.bytesBefore - totals.bytesAfter

export function summaryTable(totals: Totals): string {
  const saved = savedBytes(totals)
  const share = totals.bytesBefore ? ` (${((saved / totals.bytesBefore) * 100).toFixed(1)}%)` : ''
  const cells = [
    ['files', String(totals.files)],
    ['done', String(totals.done)],
    ['failed', String(totals.failed)],
    ['before', formatBytes(totals.bytesBefore)],
    ['after', formatBytes(totals.bytesAfter)],
    ['saved', `${formatBytes(saved)}${share}`],
  ]
  const widths = cells.map(([head, value]) => Math.max(head!.length, value!.length))
  const line = (index: 0 | 1) => cells.map((cell, i) => cell[index]!.padStart(widths[i]!)).join('  ')
  return `${line(0)}\n${line(1)}`
}

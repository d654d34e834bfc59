/*
 * Where what is said about a batch goes. --json: one JSON line per file on standard output (on
 * standard error when the image itself goes to standard output), nothing else. Otherwise each
 * failure goes to standard error, naming its code; each result is one line on standard output
 * when that is not a terminal, and a progress bar on standard error when that is one. The
 * summary table, on standard error, ends both.
 */
import { endQuietlyOnClosedPipe } from './stdout.ts'
import { humanLine, jsonLine, type FileOutcome } from './file-report.ts'
import { createProgress } from './progress.ts'
import { addOutcome, emptyTotals, savedBytes, summaryTable, type Totals } from './summary.ts'

export interface Reporter {
  working(file: string): void
  report(outcome: FileOutcome): void
  finish(): Totals
}

export function createReporter(total: number, mode: { json: boolean; imageOnStdout: boolean }): Reporter {
  const totals = emptyTotals()
  endQuietlyOnClosedPipe()
  const results = mode.imageOnStdout ? process.stderr : process.stdout
  if (mode.json)
    return {
      working() {},
      report(outcome) {
        addOutcome(totals, outcome)
        results.write(`${jsonLine(outcome)}\n`)
      },
      finish: () => totals,
    }
  const progress =
    process.stderr.isTTY && !mode.imageOnStdout ? createProgress(total, process.stderr) : undefined
  const resultLines = !mode.imageOnStdout && !process.stdout.isTTY
  let current = ''
  return {
    working(file) {
      current = file
      progress?.update(totals.files, savedBytes(totals), file)
    },
    report(outcome) {
      addOutcome(totals, outcome)
      const line = humanLine(outcome)
      if ('code' in outcome) progress ? progress.print(line) : process.stderr.write(`${line}\n`)
      else if (resultLines) results.write(`${line}\n`)
      progress?.update(totals.files, savedBytes(totals), current)
    },
    finish() {
      progress?.clear()
      if (!mode.imageOnStdout) process.stderr.write(`${summaryTable(totals)}\n`)
      return totals
    },
  }
}

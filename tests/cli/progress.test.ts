import { describe, expect, test } from 'bun:test'
import { createProgress } from '../../src/cli/progress.ts'
import { emptyTotals, addOutcome, summaryTable } from '../../src/cli/summary.ts'

/** A terminal of 60 columns that keeps what was written. */
function fakeTerminal() {
  const written: string[] = []
  const stream = {
    columns: 60,
    write: (text: string) => written.push(text) > 0,
  } as unknown as NodeJS.WriteStream
  return { stream, written }
}

describe('progress and summary', () => {
  test('the bar redraws one line in place with files done, bytes saved and the current file, within the width', () => {
    const { stream, written } = fakeTerminal()
    const progress = createProgress(4, stream)
    progress.update(1, 250_000, '/photos/a-very-long-folder-name/and-a-long-file-name.jpg')
    const line = written.at(-1)!
    expect(line.startsWith('\r\x1b[2K')).toBe(true)
    expect(line).toContain('1/4 files, 250.0 kB saved')
    expect(line.replace('\r\x1b[2K', '').length).toBeLessThan(60)
    progress.print('a.jpg: CORRUPT_IMAGE: truncated')
    expect(written.at(-1)).toBe('a.jpg: CORRUPT_IMAGE: truncated\n')
  })

  test('the summary table counts files, bytes before and after, saved and failed', () => {
    const totals = emptyTotals()
    const result = { inputBytes: 1000, data: new Uint8Array(400) }
    addOutcome(totals, { file: 'a', written: true, result } as never)
    addOutcome(totals, { file: 'b', code: 'CORRUPT_IMAGE', detail: '' })
    expect(summaryTable(totals)).toBe(
      [
        'files  done  failed  before  after          saved',
        '    2     1       1  1.0 kB  400 B  600 B (60.0%)',
      ].join('\n'),
    )
  })
})

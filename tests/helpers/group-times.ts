import { existsSync, readFileSync } from 'node:fs'

/**
 * How long each group of test files took, read from the JUnit report `bun test` writes beside
 * its console output: the slow groups (the browser suites) are watched against their budget
 * without splitting the run into several processes.
 */
export const TEST_GROUPS: readonly { readonly name: string; readonly matches: (file: string) => boolean }[] =
  [
    { name: 'tools in a browser', matches: (file) => file.startsWith('tests/browser/tools-') },
    { name: 'docs in a browser', matches: (file) => file.startsWith('tests/browser/') },
    { name: 'the rest', matches: () => true },
  ]

/** Seconds per test file: the report's outermost suites, one per file. */
export function fileTimes(xml: string): Map<string, number> {
  const times = new Map<string, number>()
  for (const match of xml.matchAll(/<testsuite name="([^"]+)" file="\1"[^>]*? time="([\d.]+)"/g))
    times.set(match[1]!, (times.get(match[1]!) ?? 0) + Number(match[2]))
  return times
}

/** One line: each group's seconds and files, in the order of TEST_GROUPS; empty groups left out. */
export function groupTimesLine(reportPath: string): string | undefined {
  if (!existsSync(reportPath)) return undefined
  const totals = TEST_GROUPS.map((group) => ({ name: group.name, seconds: 0, files: 0 }))
  for (const [file, seconds] of fileTimes(readFileSync(reportPath, 'utf8'))) {
    const total = totals[TEST_GROUPS.findIndex((group) => group.matches(file))]!
    total.seconds += seconds
    total.files += 1
  }
  const parts = totals
    .filter((total) => total.files > 0)
    .map(
      (total) =>
        `${total.name} ${Math.round(total.seconds)} s (${total.files} ${total.files === 1 ? 'file' : 'files'})`,
    )
  return parts.length ? `time by group: ${parts.join(', ')}` : undefined
}

import { existsSync, readFileSync } from 'node:fs'

/**
 * How long each group of test files took, read from the JUnit reports `bun test` writes beside
 * its console output (one per run: the parallel one and the suites run alone): the slow groups
 * (the browser suites) are watched against their budget. A file's time is its own, so with files
 * run two at a time the groups add up to more than the run's wall time.
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
export function groupTimesLine(reportPaths: readonly string[]): string | undefined {
  const present = reportPaths.filter((path) => existsSync(path))
  if (present.length === 0) return undefined
  const totals = TEST_GROUPS.map((group) => ({ name: group.name, seconds: 0, files: 0 }))
  const times = present.flatMap((path) => [...fileTimes(readFileSync(path, 'utf8'))])
  for (const [file, seconds] of times) {
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

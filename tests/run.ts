/**
 * The project's test command (`npm test`): type-check, format check, then `bun test`.
 * Prints the time each group of test files took (tests/helpers/group-times.ts), then ends
 * with one plain line `N passed, N failed` (the type and format checks, and the check that
 * no process the run started is left behind, count as tests), and exits
 * non-zero if anything failed. Extra arguments go to `bun test`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pkg from '../package.json'
import { groupTimesLine } from './helpers/group-times.ts'
import { processesOfRun, TEST_RUN_ENV } from './helpers/leftover-processes.ts'

const bun = process.execPath
const startedAt = performance.now()
const binaryMode = process.argv.includes('--binary')
const quickMode = process.argv.includes('--quick')
const extraArgs = process.argv.slice(2).filter((a) => a !== '--binary' && a !== '--quick')

/**
 * `--quick` (npm run test:quick), the edit-test loop: the same type and format checks, and the
 * suites that need neither a browser, the corpus, Redis, the executable nor other languages'
 * tool chains. CI and `npm test` still run everything.
 */
const QUICK_SUITES = [
  'tests/access',
  'tests/docs',
  'tests/http',
  'tests/image',
  'tests/metrics',
  'tests/openapi/declared-headers.test.ts',
  'tests/options',
  'tests/routes',
  'tests/source',
  'tests/structure',
  'tests/config.test.ts',
  'tests/locales.test.ts',
  'tests/memory-plan.test.ts',
  'tests/readme.test.ts',
]
/**
 * The slowest suites of those folders, which `npm test` runs: the option x format matrix, the
 * shared-decode check over every fixture, the searches' guarantees, clients that trickle in real
 * time, SVG renders stopped at their limits, and the metrics of every outcome.
 */
const QUICK_IGNORED = [
  'tests/routes/option-readback.test.ts',
  'tests/image/variants-sharing.test.ts',
  'tests/routes/smart.test.ts',
  'tests/http/slow-clients.test.ts',
  'tests/image/svg/guard.test.ts',
  'tests/metrics/compress-outcomes.test.ts',
]
if (quickMode) {
  // The corpus-wide parts of these suites wait for `npm test` as well.
  process.env.IMGAPI_TEST_WITHOUT_CORPUS = '1'
  if (extraArgs.length === 0)
    extraArgs.push(...QUICK_SUITES, ...QUICK_IGNORED.map((path) => `--path-ignore-patterns=${path}`))
}

/**
 * `--binary` (npm run test:binary): the same API and command-line suites, plus the executable's own, against
 * dist/imgapi-<version>-linux-x64 started alone in an empty directory.
 */
if (binaryMode) {
  const dist = resolve(import.meta.dir, '../dist')
  const binary = join(dist, `imgapi-${pkg.version}-linux-x64`)
  if (!existsSync(binary)) {
    console.error(`${binary} does not exist; run npm run build first`)
    console.log('0 passed, 1 failed')
    process.exit(1)
  }
  process.env.IMGAPI_TEST_BINARY = binary
  process.env.IMGAPI_TEST_ARM64_BINARY = join(dist, `imgapi-${pkg.version}-linux-arm64`)
  extraArgs.unshift(
    'tests/routes',
    'tests/http',
    'tests/corpus',
    'tests/browser',
    'tests/process.test.ts',
    'tests/binary',
    'tests/cli',
  )
}

/**
 * Suites that hold a job to the CPU time or the memory the machine gives it: beside another
 * suite's encodes a timeout turns into OVERLOADED (the machine too busy) and a memory bound is
 * shared. They run alone, after the others, which run two files at a time (`--parallel`, one per
 * CPU), the slowest first as tests/timings.json lists them (`--update-timings` rewrites it).
 */
const ALONE = [
  'tests/jobs/workers.test.ts',
  'tests/jobs/cpu-affinity.test.ts',
  'tests/jobs/memory-bound.test.ts',
  'tests/jobs/search-timeout.test.ts',
  // Its 200 ms job timeout becomes 503 OVERLOADED beside another suite's encodes.
  'tests/http/limits.test.ts',
]
const TIMINGS = resolve(import.meta.dir, 'timings.json')

/** The arguments for the parallel run (undefined: nothing left to run there) and the suites run alone. */
function splitAlone(args: readonly string[]): { together?: string[]; alone: string[] } {
  const paths = args.filter((arg) => !arg.startsWith('-') && existsSync(arg))
  const covers = (file: string) =>
    paths.length === 0 || paths.some((path) => file.startsWith(path.replace(/^\.\//, '')))
  const alone = ALONE.filter(covers)
  const onlyAlone = paths.length > 0 && paths.every((path) => ALONE.includes(path.replace(/^\.\//, '')))
  const ignored = args.filter((arg) => arg.startsWith('--path-ignore-patterns='))
  const aloneArgs = alone.length
    ? [...args.filter((arg) => !paths.includes(arg) && !ignored.includes(arg)), ...alone]
    : []
  return {
    together: onlyAlone ? undefined : [...args, ...ALONE.map((file) => `--path-ignore-patterns=${file}`)],
    alone: aloneArgs,
  }
}

async function run(
  label: string,
  command: string[],
): Promise<{ ok: boolean; output: string; leaked: boolean }> {
  console.log(`\n== ${label}: ${command.slice(1).join(' ')}`)
  const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe', env: process.env })
  let output = ''
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true })
      output += text
      sink.write(text)
    }
  }
  const pumped = Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)])
  const code = await proc.exited
  // A server a test started and never stopped keeps the pipes open after the run ends: report
  // it as a failure instead of waiting for ever.
  const closed = await Promise.race([pumped.then(() => true), Bun.sleep(OUTPUT_GRACE_MS).then(() => false)])
  if (!closed) {
    console.error(
      `\n${label}: a process the run started still holds its output ${OUTPUT_GRACE_MS / 1000} s after it ended (a server a test did not stop?)`,
    )
    return { ok: false, output, leaked: true }
  }
  return { ok: code === 0, output, leaked: false }
}

const OUTPUT_GRACE_MS = 10_000

// Every process the run starts inherits this id (servers get it from tests/helpers/api.ts).
const runId = `${process.pid}-${Date.now()}`
process.env[TEST_RUN_ENV] = runId

/** Servers or workers still alive after the run: reported, killed, and counted as a failure. */
async function leftoverProcesses(): Promise<number> {
  let left = processesOfRun(runId)
  for (let waited = 0; left.length > 0 && waited < LEFTOVER_GRACE_MS; waited += 100) {
    await Bun.sleep(100)
    left = processesOfRun(runId)
  }
  for (const { pid, command } of left) {
    console.error(`\nleft behind by the run: pid ${pid}: ${command}`)
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone at last.
    }
  }
  return left.length
}

const LEFTOVER_GRACE_MS = 3000

/** bun's `(fail) suite > test [time]` lines, once each (bun prints them again in its summary). */
function failedTests(output: string): string[] {
  return [...new Set(output.match(/^\(fail\) .*$/gm) ?? [])]
}

/** bun's closing `N pass` (`fail`, `skip`) lines, summed over the runs. */
const count = (output: string, word: string) =>
  [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, 'gm'))].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  )

// The docs site's browser assets are built first: the server embeds them, and tsc checks their module.
const docs = await run('docs assets', [bun, join(import.meta.dir, '../src/build/docs-assets.ts')])
if (!docs.ok) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const typecheck = await run('typecheck', [bun, 'x', 'tsc', '--noEmit'])
const format = await run('format', [bun, 'x', 'prettier', '--check', '.'])
// The JUnit reports are read only for each group's time (the browser suites have a budget).
const reportDir = mkdtempSync(join(tmpdir(), 'imgapi-test-report-'))
const reports: string[] = []
const bunTest = (label: string, args: string[]) => {
  const report = join(reportDir, `${reports.length}.xml`)
  reports.push(report)
  return run(label, [
    bun,
    'test',
    '--timeout=120000',
    '--reporter=junit',
    `--reporter-outfile=${report}`,
    ...args,
  ])
}
const split = splitAlone(extraArgs)
const runs = []
if (split.together)
  runs.push(await bunTest('tests', ['--parallel', `--timings=${TIMINGS}`, ...split.together]))
if (split.alone.length) runs.push(await bunTest('tests alone', split.alone))
const tests = {
  ok: runs.every((each) => each.ok),
  leaked: runs.some((each) => each.leaked),
  output: runs.map((each) => each.output).join('\n'),
}
const groupTimes = groupTimesLine(reports)
rmSync(reportDir, { recursive: true, force: true })

const leftovers = await leftoverProcesses()

const checks = [typecheck.ok, format.ok, leftovers === 0]
const passed = count(tests.output, 'pass') + checks.filter(Boolean).length
let failed = count(tests.output, 'fail') + checks.filter((ok) => !ok).length
if (tests.leaked) failed += 1
else if (!tests.ok && count(tests.output, 'fail') === 0) failed += 1 // bun failed without a test failing (e.g. load error)
const skipped = count(tests.output, 'skip')

console.log(
  `\ntypecheck ${typecheck.ok ? 'ok' : 'FAILED'}, format ${format.ok ? 'ok' : 'FAILED'}, bun test ${tests.ok ? 'ok' : 'FAILED'}${skipped ? ` (${skipped} skipped)` : ''}, processes left behind: ${leftovers}`,
)
if (groupTimes) console.log(groupTimes)
// Repeated at the very end, where a CI log cut to its tail still shows which test failed.
for (const line of failedTests(tests.output)) console.log(line)
const seconds = Math.round((performance.now() - startedAt) / 1000)
console.log(
  `${quickMode ? 'npm run test:quick' : binaryMode ? 'npm run test:binary' : 'npm test'} took ${Math.floor(seconds / 60)} min ${seconds % 60} s`,
)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)

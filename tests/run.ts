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
const binaryMode = process.argv.includes('--binary')
const extraArgs = process.argv.slice(2).filter((a) => a !== '--binary')

/**
 * `--binary` (npm run test:binary): the same API suites, plus the executable's own, against
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
  )
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

const count = (output: string, word: string) => {
  const matches = [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, 'gm'))]
  return matches.length ? Number(matches.at(-1)![1]) : 0
}

// The docs site's browser assets are built first: the server embeds them, and tsc checks their module.
const docs = await run('docs assets', [bun, join(import.meta.dir, '../src/build/docs-assets.ts')])
if (!docs.ok) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const typecheck = await run('typecheck', [bun, 'x', 'tsc', '--noEmit'])
const format = await run('format', [bun, 'x', 'prettier', '--check', '.'])
// The JUnit report is read only for each group's time (the browser suites have a budget).
const reportDir = mkdtempSync(join(tmpdir(), 'imgapi-test-report-'))
const report = join(reportDir, 'junit.xml')
const tests = await run('tests', [
  bun,
  'test',
  '--timeout=120000',
  '--reporter=junit',
  `--reporter-outfile=${report}`,
  ...extraArgs,
])
const groupTimes = groupTimesLine(report)
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
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)

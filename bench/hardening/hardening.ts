/*
 * Reproduces every attack the service has met, each against a fresh server with a stated
 * memory budget, and prints per attack: the statuses received, health latency throughout, peak
 * RSS against the README's formula (idle + upload budget + decode budget), and PASS/FAIL per
 * goal. Exits 0 only if every goal holds. Later changes are checked against this script.
 *
 * Usage: bun bench/hardening/hardening.ts [--quick] [--only <scenario>] [--binary dist/imgapi-<v>-linux-x64]
 */
import { availableParallelism } from 'node:os'
import pkg from '../../package.json'
import { killChildren, runBenchMain } from '../common/server.ts'
import { parseCli, USAGE } from './cli.ts'
import { runScenario, type RunOptions, type ScenarioResult } from './harness.ts'
import { formatBlock, formatSummary } from './report.ts'
import { goal, type Scenario } from './scenario.ts'
import { SCENARIOS } from './scenarios/index.ts'

/** A scenario that hangs must not hang the run: past this it fails and the next one starts. */
const CEILING_MS = { quick: 120_000, full: 240_000 }

async function runBounded(scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const ceilingMs = options.quick ? CEILING_MS.quick : CEILING_MS.full
  const failed = (evidence: string): ScenarioResult => ({
    scenario,
    env: scenario.env ?? {},
    goals: [goal('ran to completion', false, evidence)],
    seconds: 0,
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  const ceiling = new Promise<ScenarioResult>((resolve) => {
    timer = setTimeout(() => resolve(failed(`still running after ${ceilingMs / 1000} s`)), ceilingMs)
  })
  try {
    return await Promise.race([
      runScenario(scenario, options).catch((error: unknown) =>
        failed(error instanceof Error ? error.message : String(error)),
      ),
      ceiling,
    ])
  } finally {
    clearTimeout(timer)
  }
}

async function main(): Promise<number> {
  const cli = parseCli(
    process.argv.slice(2),
    SCENARIOS.map((s) => s.name),
  )
  const chosen = cli.only.length ? SCENARIOS.filter((s) => cli.only.includes(s.name)) : SCENARIOS
  const target = cli.binary ?? `bun ${Bun.version} src/index.ts`
  console.log(
    `imgapi ${pkg.version} hardening${cli.quick ? ' (quick)' : ''}: ${target}, ${availableParallelism()} CPUs`,
  )
  const results: ScenarioResult[] = []
  for (const scenario of chosen) {
    console.error(`[${scenario.name}] starting`)
    const result = await runBounded(scenario, cli)
    results.push(result)
    console.log(`\n${formatBlock(result)}`)
    // A scenario that hit its ceiling may have left its server behind.
    killChildren()
  }
  console.log(`\n${formatSummary(results)}`)
  const failed = results.flatMap((r) =>
    r.goals.filter((g) => !g.pass).map((g) => `${r.scenario.name}: ${g.name}`),
  )
  const skipped = results.filter((r) => r.skipped).map((r) => `${r.scenario.name} (${r.skipped})`)
  if (skipped.length) console.log(`skipped: ${skipped.join('; ')}`)
  console.log(failed.length ? `FAILED goals:\n  ${failed.join('\n  ')}` : 'every goal holds')
  return failed.length ? 1 : 0
}

runBenchMain(main, USAGE, 2)

/*
 * Runs one scenario against a fresh server (peaks of different attacks must not mix): start,
 * warm up, measure idle RSS, then the attack under the health prober and the peak watch, then
 * the goals every scenario shares.
 */
import { loadConfig } from '../../src/config.ts'
import { ROOT } from '../../tests/helpers/paths.ts'
import { treeStatusBytes } from '../common/proc.ts'
import { startCpuWitness, startServer, type ServerHandle } from '../common/server.ts'
import { backAtRest, drainingGoal, healthGoal, memoryGoal } from './common-goals.ts'
import { watchCpuWait, type CpuWait } from './cpu-wait.ts'
import { fixture, SMALL_PHOTO } from './inputs.ts'
import { watchLag, type LagFigures } from './lag.ts'
import { idleRss, memoryBudgets, watchPeak, type MemoryFigures } from './memory.ts'
import { HealthProber, summarizeProbes, type HealthFigures } from './monitor.ts'
import { postImage } from './requests.ts'
import type { Goal, Outcome, Scenario, ScenarioContext } from './scenario.ts'

/** Beyond the job timeout, how long the last requests may take to give their places back. */
const REST_SLACK_MS = 3_000

/** Every scenario runs with a stated budget unless it says otherwise. */
export const COMMON_ENV = {
  IMGAPI_MEMORY_LIMIT_BYTES: String(2 ** 30),
  IMGAPI_WORKERS: '2',
  // Each attack comes from one client; the per-client cap would answer most of them with 429
  // before the defence under test is reached. limited-load puts it back.
  IMGAPI_MAX_CLIENT_JOBS: '100000',
  // Errors stay visible on stderr; warnings would be one line per refused request.
  IMGAPI_LOG_LEVEL: 'error',
}

export interface RunOptions {
  readonly quick: boolean
  /** The compiled executable, instead of the sources. */
  readonly binary?: string
}

export interface ScenarioResult {
  readonly scenario: Scenario
  readonly env: Readonly<Record<string, string>>
  readonly skipped?: string
  readonly outcome?: Outcome
  readonly health?: HealthFigures
  readonly memory?: MemoryFigures
  readonly goals: readonly Goal[]
  /** CPUs other processes kept busy meanwhile: the noise. */
  readonly otherCpus?: number
  readonly clientLag?: LagFigures
  /** Time the server's and this process's main threads waited for a CPU meanwhile. */
  readonly cpuWait?: { readonly server: CpuWait; readonly client: CpuWait }
  readonly seconds: number
}

/** IMGAPI_* variables of this process's environment: the server inherits them, so they are settings too. */
function inheritedSettings(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('IMGAPI_')),
  )
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const env = { ...inheritedSettings(), ...COMMON_ENV, ...scenario.env }
  const skipped = scenario.skipReason?.()
  if (skipped) return { scenario, env, skipped, goals: [], seconds: 0 }
  const started = performance.now()
  const server = await startServer({
    repoRoot: ROOT,
    env,
    ...(options.binary ? { command: [options.binary] } : {}),
  })
  try {
    const measured = await measure(scenario, server, env, options)
    return { scenario, env, ...measured, seconds: (performance.now() - started) / 1000 }
  } finally {
    await server.stop()
  }
}

async function warmUp(baseUrl: string): Promise<void> {
  const answer = await postImage(baseUrl, 'format=webp&width=200', await fixture(SMALL_PHOTO))
  if (answer.status !== 200) throw new Error(`the warm-up request got ${answer.status ?? answer.error}`)
}

/** Everything watched while the attack runs; `stop` ends it all, whatever happened. */
function startWatching(server: ServerHandle) {
  const witness = startCpuWitness()
  const lag = watchLag()
  const serverWait = watchCpuWait(server.pid)
  const clientWait = watchCpuWait(process.pid)
  const peak = watchPeak(server.pid)
  const prober = HealthProber.start(server.baseUrl)
  return {
    prober,
    stop: async () => ({
      clientLag: lag.stop(),
      cpuWait: { server: serverWait.stop(), client: clientWait.stop() },
      probes: await prober.stop(),
      peaks: peak.stop(),
      otherCpus: witness.otherCpus(),
    }),
  }
}

async function measure(
  scenario: Scenario,
  server: ServerHandle,
  env: Readonly<Record<string, string>>,
  options: RunOptions,
) {
  let exitCode: number | undefined
  void server.exited.then((code) => (exitCode = code))
  await warmUp(server.baseUrl)
  const idleBytes = await idleRss(server.pid)
  const watching = startWatching(server)
  const context: ScenarioContext = {
    baseUrl: server.baseUrl,
    server,
    quick: options.quick,
    config: loadConfig({ env }),
    idleBytes,
    peakBytes: () => treeStatusBytes(server.pid, 'VmRSS') ?? Number.NaN,
    stopProbing: async () => void (await watching.prober.stop()),
    progress: (line) => console.error(`[${scenario.name}] ${line}`),
  }
  let outcome: Outcome
  let watched: Awaited<ReturnType<typeof watching.stop>>
  try {
    outcome = await scenario.run(context)
  } finally {
    watched = await watching.stop()
  }
  const { clientLag, cpuWait, probes, peaks, otherCpus } = watched
  const stopsServer = outcome.stopsServer ?? false
  const health = summarizeProbes(probes, stopsServer)
  const budgets = memoryBudgets(env)
  const boundBytes = idleBytes + budgets.uploadBudgetBytes + budgets.decodeBudgetBytes + budgets.keptBytes
  const memory = { idleBytes, ...budgets, ...peaks, boundBytes }
  const last = stopsServer
    ? drainingGoal(health)
    : await backAtRest(server.baseUrl, () => exitCode, context.config.jobTimeoutMs + REST_SLACK_MS)
  const goals = [...outcome.goals, healthGoal(health), memoryGoal(memory), last]
  return { outcome, health, memory, goals, otherCpus, clientLag, cpuWait }
}

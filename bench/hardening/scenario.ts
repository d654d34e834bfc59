/* What a scenario is, what it is given, and what it hands back. */
import type { Config } from '../../src/config.ts'
import type { ServerHandle } from '../common/server.ts'
import type { Tally } from './tally.ts'

export interface Goal {
  readonly name: string
  readonly pass: boolean
  /** The figures the verdict rests on. */
  readonly evidence: string
}

export const goal = (name: string, pass: boolean, evidence: string): Goal => ({ name, pass, evidence })

export interface ScenarioContext {
  readonly baseUrl: string
  readonly server: ServerHandle
  readonly quick: boolean
  /** The settings the server runs with, parsed as it parses them. */
  readonly config: Config
  /** The server's RSS at rest, after its warm-up. */
  readonly idleBytes: number
  /** The server's peak RSS so far (VmHWM). */
  peakBytes(): number
  /** Ends health probing early, for a scenario that stops the server itself. */
  stopProbing(): Promise<void>
  /** A progress line on stderr, apart from the report. */
  progress(line: string): void
}

export interface Outcome {
  readonly tally: Tally
  /** Figures of this scenario, one per line. */
  readonly lines: readonly string[]
  readonly goals: readonly Goal[]
  /** The scenario ends the server on purpose: no "still alive" goal, draining health is healthy. */
  readonly stopsServer?: boolean
}

export interface Scenario {
  readonly name: string
  /** The attack as it was reported. */
  readonly attack: string
  /** IMGAPI_* settings beyond the common ones. */
  readonly env?: Readonly<Record<string, string>>
  /** Why it cannot run here (e.g. the corpus is absent), or undefined. */
  skipReason?(): string | undefined
  run(context: ScenarioContext): Promise<Outcome>
}

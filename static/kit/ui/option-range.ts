import type { OptionName } from '../../../src/options/schema.ts'
import { env } from '../env.ts'

export interface OptionRange {
  readonly min: number
  readonly max: number
  /** What the server uses when a request leaves the option out; absent when it then does nothing. */
  readonly default?: number
}

/**
 * A numeric option's range and default on this server, from the schema that validates requests
 * (the page data carries it, narrowed by the server's limits): a control for an option never
 * writes its own bounds, so it cannot offer a value the API refuses or hide one it takes.
 */
export function optionRange(name: OptionName): OptionRange {
  const facts = env().data.options[name]
  // A number or a word (quality: 1 to 100 or auto-high…) has a range for its numbers too.
  const numeric = facts?.kind === 'number' || facts?.kind === 'integer' || facts?.kind === 'integer-or-word'
  if (!numeric || facts.min === undefined || facts.max === undefined)
    throw new Error(`${name} is not a bounded numeric option`)
  return { min: facts.min, max: facts.max, default: 'default' in facts ? facts.default : undefined }
}

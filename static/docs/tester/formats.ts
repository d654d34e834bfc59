import type { ServerFormat } from '../../kit/api/server.ts'

/** The format a `format=` value names (an id or an alias), if this server writes it. */
export function findFormat(formats: readonly ServerFormat[], name: string): ServerFormat | undefined {
  return formats.find((f) => f.output && (f.id === name || f.aliases.includes(name)))
}

/**
 * Options that only some outputs take, as the server's formats declare them (the rest: size,
 * fit, background… apply to every output). Read from the list, so an option a format gains
 * is narrowed here with no change to this page.
 */
export function tunableOptions(formats: readonly ServerFormat[]): Set<string> {
  return new Set(formats.flatMap((format) => Object.keys(format.tunables)))
}

/** What the tester shows beside an option for the chosen format. */
export interface Narrowed {
  readonly applies: boolean
  readonly min?: number
  readonly max?: number
  readonly default?: number
}

/**
 * An option narrowed to the chosen output: not used by it, or used within its range on this
 * server. With no format chosen (or original, auto) every option keeps the schema's range.
 */
export function narrow(formats: readonly ServerFormat[], formatValue: string, name: string): Narrowed {
  const format = findFormat(formats, formatValue)
  if (!format || !tunableOptions(formats).has(name)) return { applies: true }
  const tunable = format.tunables[name as keyof typeof format.tunables] as
    { min?: number; max?: number; default?: unknown } | undefined
  if (!tunable) return { applies: false }
  if (tunable.min === undefined || tunable.max === undefined) return { applies: true }
  return { applies: true, min: tunable.min, max: tunable.max, default: Number(tunable.default) }
}

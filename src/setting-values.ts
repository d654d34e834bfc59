import type { SettingSpec } from './settings.ts'

/**
 * How each kind of setting is written and read back. Every value a setting can take is
 * validated here once, at start-up, and a bad one is an error naming where it came from,
 * what was expected and what was received (a secret's value is never repeated).
 */
export class ConfigError extends Error {}

export type SettingValue = number | string | boolean

const DURATION = /^(\d+)\s*(ms|s|m|h)?$/
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
}

export function describeExpected(spec: SettingSpec): string {
  const range = () => {
    const max = spec.max !== undefined ? ` and ${spec.max}` : ''
    return max ? `between ${spec.min ?? 0}${max}` : `of at least ${spec.min ?? 0}`
  }
  switch (spec.kind) {
    case 'enum':
      return `one of ${spec.values!.join(', ')}`
    case 'boolean':
      return 'true or false'
    case 'url':
      return `a URL starting with ${spec.protocols!.map((p) => `${p}//`).join(' or ')}`
    case 'path':
      return 'a file path'
    case 'string':
      return 'a string'
    case 'duration':
      return `a duration in milliseconds ${range()} (or with a unit: 500ms, 30s, 2m, 1h)`
    case 'integer':
      return `an integer ${range()}`
  }
}

function inRange(spec: SettingSpec, n: number): boolean {
  return Number.isSafeInteger(n) && n >= (spec.min ?? 0) && (spec.max === undefined || n <= spec.max)
}

/** The typed value of `raw`, or undefined when it is not one this setting accepts. */
function convert(spec: SettingSpec, raw: string): SettingValue | undefined {
  const text = raw.trim()
  switch (spec.kind) {
    case 'string':
    case 'path':
      return text
    case 'enum':
      return spec.values!.includes(text) ? text : undefined
    case 'boolean':
      return BOOLEANS[text.toLowerCase()]
    case 'url':
      return URL.canParse(text) && spec.protocols!.includes(new URL(text).protocol) ? text : undefined
    case 'duration': {
      const match = DURATION.exec(text)
      const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms']! : NaN
      return inRange(spec, ms) ? ms : undefined
    }
    case 'integer': {
      const n = /^\d+$/.test(text) ? Number(text) : NaN
      return inRange(spec, n) ? n : undefined
    }
  }
}

export function parseSettingValue(spec: SettingSpec, raw: string, source: string): SettingValue {
  const value = convert(spec, raw)
  if (value !== undefined) return value
  const received = spec.secret ? 'a value that is not one' : `"${raw}"`
  throw new ConfigError(`${source} must be ${describeExpected(spec)}, received ${received}`)
}

/** A setting's value as logs and --help may show it: secrets only say whether they are set. */
export function displayValue(spec: SettingSpec, value: SettingValue): string {
  if (spec.secret) return value === '' ? '(not set)' : '(set)'
  return value === '' ? '(empty)' : String(value)
}

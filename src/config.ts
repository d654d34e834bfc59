import { homedir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, describeExpected, parseSettingValue, type SettingValue } from './setting-values.ts'
import { SETTINGS, type SettingName, type SettingSpec } from './settings.ts'
import { checkStoreConfig } from './store/index.ts'

type ValueOf<S extends SettingSpec> = S['kind'] extends 'integer' | 'duration'
  ? number
  : S['kind'] extends 'boolean'
    ? boolean
    : S extends { values: readonly (infer V)[] }
      ? V
      : string

export type Config = { readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> }

export { ConfigError }

export interface ConfigSources {
  argv?: readonly string[]
  env?: Readonly<Record<string, string | undefined>>
}

const FLAG_TO_NAME = new Map<string, SettingName>(
  Object.entries(SETTINGS).map(([name, spec]) => [spec.flag, name as SettingName] as const),
)

/** Splits `--flag value` and `--flag=value` pairs; anything else is an error naming it. */
function parseFlags(argv: readonly string[]): Map<SettingName, string> {
  const found = new Map<SettingName, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const eq = arg.indexOf('=')
    const flag = eq === -1 ? arg : arg.slice(0, eq)
    const name = FLAG_TO_NAME.get(flag)
    if (!name) throw new ConfigError(`unknown argument ${arg}; run with --help to list the flags`)
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1)
    if (value === undefined)
      throw new ConfigError(`${flag} needs a value (${describeExpected(SETTINGS[name])})`)
    found.set(name, value)
  }
  return found
}

/** Resolves every setting as flag ?? env ?? default, validated once; the result is frozen. */
export function loadConfig({ argv = [], env = {} }: ConfigSources = {}): Config {
  const flags = parseFlags(argv)
  const config: Record<string, SettingValue> = {}
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, SettingSpec][]) {
    const fromFlag = flags.get(name)
    const envName = spec.env.find((key) => env[key] !== undefined && env[key] !== '')
    if (fromFlag !== undefined) config[name] = parseSettingValue(spec, fromFlag, spec.flag)
    else if (envName) config[name] = parseSettingValue(spec, env[envName]!, envName)
    else config[name] = spec.default
  }
  if (config.libDir === '') config.libDir = defaultLibDir(env)
  // A store with no endpoint, region or keys would fail every write, or go to AWS itself.
  checkStoreConfig(config as Config)
  return Object.freeze(config) as Config
}

/** Variables the service sets for its own children, never an operator's setting. */
const INTERNAL_ENV = /^IMGAPI_(WORKER_CONFIG|WORKER_CPU|TEST_)/

/**
 * IMGAPI_* variables that name no setting: a typo, or a setting that was removed (say,
 * IMGAPI_MAX_AVIF_PIXELS). Reported at start-up rather than refused, so an upgrade does not
 * stop a deployment over a setting that no longer does anything.
 */
export function unknownEnvSettings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = new Set(Object.values(SETTINGS).flatMap((spec) => spec.env as readonly string[]))
  return Object.keys(env).filter(
    (key) => key.startsWith('IMGAPI_') && !known.has(key) && !INTERNAL_ENV.test(key),
  )
}

/** XDG base-directory convention: per-user cache, never a shared world-writable place. */
function defaultLibDir(env: Readonly<Record<string, string | undefined>>): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache')
  return join(cache, 'imgapi')
}

/** Test and embedding helper: defaults with a few settings replaced. */
export function configWith(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig(), ...overrides })
}

/*
 * `imgapi compress` arguments: inputs, the API's options (option-flags.ts) and the command's own
 * flags below, declared once here and listed by --help from this table. `--flag value` and
 * `--flag=value` both work; a boolean stands alone or takes `=true`/`=false`.
 */
import { closestName } from '../options/closest-name.ts'
import type { OptionInput } from '../options/parse.ts'
import { FLAG_OPTIONS, isBooleanOption, kebabCase, optionOfFlag, optionText } from './option-flags.ts'

export const COMMAND_FLAGS = {
  out: { value: 'dir', text: "write outputs under DIR, keeping the inputs' relative folders" },
  suffix: { value: 'text', text: "add TEXT to each output's name before its extension (photo.min.webp)" },
  inPlace: {
    value: '',
    text: 'replace each input with its output (atomically: a temporary file renamed over it)',
  },
  overwrite: {
    value: '',
    text: 'replace outputs that already exist (otherwise such a file fails with OUTPUT_EXISTS)',
  },
  overlay: { value: 'file', text: "the watermark image (the API's overlay file field)" },
  jobs: { value: 'n', text: 'images worked at once, each in a worker process (default: the CPU count)' },
  json: { value: '', text: 'one JSON line per file, failures included, for scripts' },
  dryRun: { value: '', text: 'compress and report, but write nothing' },
  help: { value: '', text: 'show this help' },
} as const

export type CommandFlag = keyof typeof COMMAND_FLAGS

export interface CompressArgs {
  readonly inputs: readonly string[]
  /** The API's options, as text for its parser. */
  readonly options: ReadonlyMap<string, OptionInput>
  /** Which flag gave each option, for error messages. */
  readonly flagOf: ReadonlyMap<string, string>
  readonly out?: string
  readonly suffix?: string
  readonly overlay?: string
  readonly jobs?: number
  readonly inPlace: boolean
  readonly overwrite: boolean
  readonly json: boolean
  readonly dryRun: boolean
  readonly help: boolean
}

/** A mistake in how the command was called: exit code 2. */
export class UsageError extends Error {}

const COMMAND_BY_FLAG = new Map<string, CommandFlag>(
  (Object.keys(COMMAND_FLAGS) as CommandFlag[]).flatMap((name) => [
    [`--${kebabCase(name)}`, name],
    [`--${name}`, name],
  ]),
)
/** Every flag by its kebab-case name, for a mistyped one's likely meaning. */
const ALL_FLAGS = [...Object.keys(COMMAND_FLAGS), ...FLAG_OPTIONS].map((name) => `--${kebabCase(name)}`)

function booleanOf(flag: string, text: string | undefined): boolean {
  if (text === undefined || text === 'true' || text === '1') return true
  if (text === 'false' || text === '0') return false
  throw new UsageError(`${flag} takes true or false, received ${JSON.stringify(text)}`)
}

export function parseCompressArgs(argv: readonly string[]): CompressArgs {
  const inputs: string[] = []
  const options = new Map<string, OptionInput>()
  const flagOf = new Map<string, string>()
  const own: Record<string, string | boolean> = {}
  let onlyInputs = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (onlyInputs || arg === '-' || !arg.startsWith('-')) {
      inputs.push(arg)
      continue
    }
    if (arg === '--') {
      onlyInputs = true
      continue
    }
    if (arg === '-h') {
      own.help = true
      continue
    }
    const eq = arg.indexOf('=')
    const flag = eq === -1 ? arg : arg.slice(0, eq)
    const inline = eq === -1 ? undefined : arg.slice(eq + 1)
    const option = optionOfFlag(flag)
    const command = COMMAND_BY_FLAG.get(flag)
    const standsAlone = option
      ? isBooleanOption(option)
      : command
        ? COMMAND_FLAGS[command].value === ''
        : false
    if (!option && !command) {
      const meant = closestName(flag, ALL_FLAGS)
      throw new UsageError(
        `unknown flag ${flag}${meant ? `; did you mean ${meant}?` : ''}; see imgapi compress --help`,
      )
    }
    const value = standsAlone ? inline : (inline ?? argv[++i])
    if (!standsAlone && value === undefined) throw new UsageError(`${flag} needs a value`)
    if (option) {
      options.set(option, standsAlone ? (value ?? 'true') : optionText(option, value!))
      flagOf.set(option, flag)
    } else own[command!] = standsAlone ? booleanOf(flag, value) : value!
  }
  return {
    inputs,
    options,
    flagOf,
    ...(typeof own.out === 'string' ? { out: own.out } : {}),
    ...(typeof own.suffix === 'string' ? { suffix: own.suffix } : {}),
    ...(typeof own.overlay === 'string' ? { overlay: own.overlay } : {}),
    ...(own.jobs !== undefined ? { jobs: parseJobs(String(own.jobs)) } : {}),
    inPlace: own.inPlace === true,
    overwrite: own.overwrite === true,
    json: own.json === true,
    dryRun: own.dryRun === true,
    help: own.help === true,
  }
}

function parseJobs(text: string): number {
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > 1024)
    throw new UsageError(`--jobs takes an integer from 1 to 1024, received ${JSON.stringify(text)}`)
  return Number(text)
}

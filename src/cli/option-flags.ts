/*
 * The API's options as command-line flags, derived from the one option schema so the two cannot
 * drift: `maxBytes` is `--max-bytes` (and `--maxBytes`), with the schema's ranges, defaults and
 * error messages. Two options have no flag: `url` (the command reads files, never fetches) and
 * `variants` (one output per input; run the command once per size instead).
 */
import { OPTION_NAMES, optionSchema, type OptionName } from '../options/schema.ts'
import { describeExpected } from '../options/parse.ts'
import { BYTE_SIZE_HINT, parseByteSize } from './byte-sizes.ts'

const WITHOUT_FLAG: readonly OptionName[] = ['url', 'variants']

/** Options whose values are byte counts, typed as sizes (`200k`, `1.5M`, `200KiB`). */
const SIZE_OPTIONS: readonly OptionName[] = ['maxBytes']

export const FLAG_OPTIONS = OPTION_NAMES.filter((name) => !WITHOUT_FLAG.includes(name))

export const kebabCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

const BY_FLAG = new Map<string, OptionName>(
  FLAG_OPTIONS.flatMap((name) => [
    [`--${kebabCase(name)}`, name],
    [`--${name}`, name],
  ]),
)

export function optionOfFlag(flag: string): OptionName | undefined {
  return BY_FLAG.get(flag)
}

/** A boolean option's flag may stand alone (`--lossless`), meaning true. */
export function isBooleanOption(name: OptionName): boolean {
  return optionSchema(name).type === 'boolean'
}

/**
 * The flag's text as the option parser reads it: a size becomes its bytes. Text that is no
 * size is passed on as it is, so the schema's own message says what was expected.
 */
export function optionText(name: OptionName, text: string): string {
  if (!SIZE_OPTIONS.includes(name)) return text
  const bytes = parseByteSize(text)
  return bytes === undefined ? text : String(bytes)
}

/** What a flag's value may be, for --help: the schema's words (a size's units for sizes). */
export function expectedText(name: OptionName): string {
  if (SIZE_OPTIONS.includes(name)) return BYTE_SIZE_HINT
  return describeExpected(optionSchema(name))
}

export function flagPlaceholder(name: OptionName): string {
  if (isBooleanOption(name)) return ''
  if (SIZE_OPTIONS.includes(name)) return ' <size>'
  return ' <value>'
}

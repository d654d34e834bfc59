import { optionSchema } from '../options/schema.ts'
import { NAME } from '../version.ts'
import { COMMAND_FLAGS, type CommandFlag } from './compress-args.ts'
import { expectedText, FLAG_OPTIONS, flagPlaceholder, kebabCase } from './option-flags.ts'

const COLUMN = 34

const row = (name: string, text: string) =>
  name.length < COLUMN ? `${name.padEnd(COLUMN)}${text}` : `${name}\n${''.padEnd(COLUMN)}${text}`

/** `imgapi compress --help`, its option list generated from the option schema so it cannot fall behind it. */
export function compressHelpText(): string {
  const own = (Object.keys(COMMAND_FLAGS) as CommandFlag[]).map((name) => {
    const { value, text } = COMMAND_FLAGS[name]
    return row(`  --${kebabCase(name)}${value ? ` <${value}>` : ''}`, text)
  })
  const options = FLAG_OPTIONS.map((name) => {
    const fallback = optionSchema(name).default
    const shown = fallback === undefined ? '' : `; default ${fallback}`
    return row(`  --${kebabCase(name)}${flagPlaceholder(name)}`, `${expectedText(name)}${shown}`)
  })
  return [
    `Usage: ${NAME} compress <file|folder|->... [flags] [options]`,
    '',
    'Compresses images with the same engine, options and never-larger rule as POST /api/compress.',
    'Folders are walked recursively; images are told by their bytes, not their names. `-` reads',
    'standard input and writes standard output. Outputs go beside the inputs unless --out is given.',
    '',
    'Flags:',
    ...own,
    '',
    "Options (the API's own; each also as its camelCase name, such as --maxBytes):",
    ...options,
    '',
    'Settings such as IMGAPI_JOB_TIMEOUT_MS and IMGAPI_MAX_INPUT_PIXELS apply as for the server.',
    'Exit codes: 0 all done, 1 some files failed, 2 usage error, 130 interrupted.',
  ].join('\n')
}

/*
 * `imgapi compress …`: arguments and options checked before anything is started (a usage error
 * exits 2 with nothing done), settings from the environment as for the server, then the batch
 * or the standard-input filter. sharp is imported only after the embedded libvips is in place.
 */
import { readFile } from 'node:fs/promises'
import { isAppError } from '../errors/app-error.ts'
import { loadConfig } from '../config.ts'
import { prepareEmbeddedLibvips } from '../image/native/libvips-loader.ts'
import { parseCompressOptions } from '../options/parse.ts'
import type { CompressOptions } from '../options/schema.ts'
import { parseCompressArgs, UsageError, type CompressArgs } from './compress-args.ts'
import { compressHelpText } from './compress-help.ts'
import { kebabCase } from './option-flags.ts'
import { writeOut } from './stdout.ts'

const USAGE = 'usage: imgapi compress <file|folder|->... [flags] [options]; see imgapi compress --help'

function checkUsage(args: CompressArgs): void {
  if (args.inputs.length === 0) throw new UsageError(`no input named; ${USAGE}`)
  const stdin = args.inputs.includes('-')
  if (stdin && args.inputs.length > 1) throw new UsageError('`-` (standard input) must be the only input')
  if (stdin && (args.out || args.inPlace || args.suffix !== undefined))
    throw new UsageError('`-` writes standard output: --out, --suffix and --in-place do not apply')
  if (args.inPlace && (args.out || args.suffix !== undefined))
    throw new UsageError('--in-place replaces the inputs: it cannot be given with --out or --suffix')
}

/** The API's options from the flags; a bad one names its flag and the API option, with the API's reason. */
function optionsOf(args: CompressArgs, maxOutputDimension: number): CompressOptions {
  try {
    return parseCompressOptions(args.options, { maxOutputDimension })
  } catch (error) {
    if (!isAppError(error) || !error.errors) throw error
    const lines = error.errors.map((field) => {
      const flag = args.flagOf.get(field.name) ?? `--${kebabCase(field.name)}`
      return `${flag} (the API's ${field.name}): ${field.reason}`
    })
    throw new UsageError(lines.join('\n'))
  }
}

async function readOverlay(path: string | undefined): Promise<Uint8Array | undefined> {
  if (path === undefined) return undefined
  return readFile(path).then(
    (bytes) => new Uint8Array(bytes),
    (error: NodeJS.ErrnoException) => {
      throw new UsageError(`--overlay ${path}: ${error.code ?? error.message}`)
    },
  )
}

export async function runCompressCommand(argv: readonly string[]): Promise<number> {
  try {
    const args = parseCompressArgs(argv)
    if (args.help) {
      writeOut(`${compressHelpText()}\n`)
      return 0
    }
    checkUsage(args)
    const settings = loadConfig({ env: process.env })
    const config = args.jobs ? { ...settings, workers: args.jobs } : settings
    const options = optionsOf(args, config.maxOutputDimension)
    const overlay = await readOverlay(args.overlay)
    prepareEmbeddedLibvips(config.libDir)
    const batch = { args, options, config, ...(overlay ? { overlay } : {}) }
    if (args.inputs[0] === '-') return (await import('./stdin-image.ts')).compressStdin(batch)
    return (await import('./run-compress.ts')).runBatch(batch)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`imgapi compress: ${error.message.replaceAll('\n', '\nimgapi compress: ')}`)
    return 2
  }
}

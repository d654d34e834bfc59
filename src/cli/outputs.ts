/*
 * Where each output goes, and how it gets there: always through a temporary file beside the
 * target, renamed (or hard-linked, when the target must not be replaced) into place, so a crash
 * or Ctrl+C never leaves a half-written image under a real name. The temporary files in flight
 * are known, so an interrupted run removes them (removeTemporaryFiles).
 */
import { unlinkSync } from 'node:fs'
import { link, mkdir, rename, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { FORMAT_TABLE, type OutputFormat } from '../formats/format-table.ts'
import type { InputFile } from './inputs.ts'
import { FileProblem } from './problems.ts'

export interface OutputChoice {
  readonly out?: string
  readonly suffix?: string
  readonly inPlace: boolean
  readonly overwrite: boolean
}

/** The output's path: the input's name with the format's extension (the input's own, if it is one of the format's). */
export function outputPathOf(input: InputFile, format: OutputFormat, choice: OutputChoice): string {
  const extensions = FORMAT_TABLE[format].extensions as readonly string[]
  const own = extname(input.path)
  const extension = extensions.includes(own.slice(1).toLowerCase()) ? own : `.${extensions[0]}`
  const stem = basename(input.path, own)
  const folder = choice.out ? join(choice.out, dirname(input.relative)) : dirname(input.path)
  const path = join(folder, `${stem}${choice.suffix ?? ''}${extension}`)
  if (resolve(path) === resolve(input.path) && !choice.inPlace)
    throw new FileProblem(
      'OUTPUT_IS_INPUT',
      `the output ${path} would replace its input; pass --in-place to allow that, or --out or --suffix`,
    )
  return path
}

const inFlight = new Set<string>()
let counter = 0
let stopped = false

/** After Ctrl+C: no write starts, and none in flight gets its real name. */
export function stopWriting(): void {
  stopped = true
}

const interrupted = () => new FileProblem('WRITE_FAILED', 'interrupted before the output was written')

/** Writes `data` at `path` atomically; refuses an existing file unless `overwrite`. */
export async function writeOutput(path: string, data: Uint8Array, overwrite: boolean): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.imgapi-${process.pid}-${++counter}.tmp`)
  if (stopped) throw interrupted()
  try {
    await mkdir(dirname(path), { recursive: true })
    inFlight.add(temporary)
    await writeFile(temporary, data, { flag: 'wx' })
    if (stopped) throw interrupted()
    if (overwrite) await rename(temporary, path)
    // A hard link is the atomic "create only if absent"; the temporary name is then let go.
    else await link(temporary, path)
  } catch (error) {
    if (error instanceof FileProblem) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' && !overwrite)
      throw new FileProblem('OUTPUT_EXISTS', `${path} exists; pass --overwrite to replace it`)
    throw new FileProblem('WRITE_FAILED', `cannot write ${path}: ${code ?? (error as Error).message}`)
  } finally {
    // After a rename there is nothing left to remove; after a link, or a failure, the temporary name.
    inFlight.delete(temporary)
    await unlink(temporary).catch(() => {})
  }
}

/** On Ctrl+C: no temporary file is left behind. Synchronous, for a signal handler that exits next. */
export function removeTemporaryFiles(): void {
  for (const path of inFlight) {
    try {
      unlinkSync(path)
    } catch {}
  }
  inFlight.clear()
}

/*
 * What can go wrong with one file on the command line. The engine's problems keep the API's
 * codes and details (errors/catalogue.ts); these few are the command's own, about files on disk.
 */
import { isAppError } from '../errors/app-error.ts'

export const FILE_PROBLEMS = {
  /** The input could not be read (missing, a permission, a folder that vanished). */
  NOT_READABLE: 'not readable',
  /** The output exists and --overwrite was not given. */
  OUTPUT_EXISTS: 'output exists',
  /** The output would be the input itself, and --in-place was not given. */
  OUTPUT_IS_INPUT: 'output is the input',
  /** The output could not be written (a read-only folder, a full disk). */
  WRITE_FAILED: 'write failed',
} as const

export type FileProblemCode = keyof typeof FILE_PROBLEMS

export class FileProblem extends Error {
  constructor(
    readonly code: FileProblemCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`)
  }
}

/** A file's failure as it is reported: the problem's code and its public detail. */
export function problemOf(error: unknown): { code: string; detail: string } {
  if (error instanceof FileProblem || isAppError(error)) return { code: error.code, detail: error.detail }
  const io = error as NodeJS.ErrnoException
  if (io?.syscall) return { code: 'NOT_READABLE', detail: `${io.code ?? 'error'}: ${io.message}` }
  return { code: 'INTERNAL', detail: String((error as Error)?.message ?? error) }
}

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BINARY, loneExecutable } from './api.ts'
import { TEST_RUN_ENV } from './leftover-processes.ts'
import { ROOT } from './paths.ts'

/*
 * `imgapi compress` run as a user runs it: a subprocess, `bun src/index.ts compress …` from the
 * checkout, or the executable alone in an empty folder when IMGAPI_TEST_BINARY names one
 * (npm run test:binary). Paths given to it should be absolute.
 */
export interface CliRun {
  readonly code: number
  readonly stdout: Uint8Array
  readonly stderr: string
  /** Standard output as text, and its JSON lines. */
  readonly text: string
  readonly lines: Record<string, any>[]
}

export interface CliOptions {
  readonly stdin?: Uint8Array
  readonly env?: Record<string, string>
  /** Called once the process has started, for tests that signal it. */
  readonly started?: (proc: ReturnType<typeof Bun.spawn>) => void
}

export function cliCommand(): string[] {
  return BINARY ? [loneExecutable().binary] : [process.execPath, join(ROOT, 'src/index.ts')]
}

export const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>)

export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'imgapi-cli-cwd-'))
  const proc = Bun.spawn([...cliCommand(), 'compress', ...args], {
    cwd,
    env: {
      HOME: BINARY ? loneExecutable().home : cwd,
      ...(process.env[TEST_RUN_ENV] ? { [TEST_RUN_ENV]: process.env[TEST_RUN_ENV] } : {}),
      ...options.env,
    },
    stdin: options.stdin ?? 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  options.started?.(proc)
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).bytes(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const text = new TextDecoder().decode(stdout)
  return { code, stdout, stderr, text, lines: jsonLines(text) }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Runs a command a page shows ("the same request with curl") in an empty folder: its exit code,
 * and the bytes of the file it was to write. What it prints (headers with -D -, progress) is not
 * checked. Not spawnSync: the server answering it runs in this very process.
 */
export async function runShownCommand(
  command: string,
  output: string,
): Promise<{ exitCode: number; bytes?: Uint8Array }> {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-curl-'))
  try {
    const run = Bun.spawn(['bash', '-c', command], { cwd: dir, stdout: 'ignore', stderr: 'ignore' })
    const exitCode = await run.exited
    const file = Bun.file(join(dir, output))
    return { exitCode, bytes: (await file.exists()) ? await file.bytes() : undefined }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/*
 * `imgapi compress -`: standard input to standard output, as a filter in a pipe. The image is the
 * only thing on standard output; what is said about it (a --json line, a failure) goes to
 * standard error. A reader that goes away (`| head -c 10`) ends the command quietly.
 */
import type { Batch } from './run-compress.ts'
import { EXIT } from './run-compress.ts'
import { startEngine } from './engine.ts'
import { problemOf } from './problems.ts'
import { createReporter } from './reporter.ts'
import { endQuietlyOnClosedPipe } from './stdout.ts'

export async function compressStdin(batch: Batch): Promise<number> {
  const reporter = createReporter(1, { json: batch.args.json, imageOnStdout: true })
  const engine = startEngine(batch.config)
  try {
    const input = await Bun.stdin.bytes()
    const result = await engine.compress(input, batch.options, batch.overlay)
    if (!batch.args.dryRun) {
      endQuietlyOnClosedPipe()
      await new Promise<void>((done) => process.stdout.write(result.data, () => done()))
    }
    reporter.report({ file: '-', written: !batch.args.dryRun, result })
  } catch (error) {
    reporter.report({ file: '-', ...problemOf(error) })
  } finally {
    await engine.stop()
  }
  return reporter.finish().failed > 0 ? EXIT.someFailed : EXIT.done
}

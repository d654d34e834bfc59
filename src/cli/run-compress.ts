/*
 * A batch: the inputs walked, then `--jobs` files at a time through the engine, each written
 * (unless --dry-run) and reported as it ends; one file's failure never stops the others.
 * Ctrl+C stops the writing, removes the temporary files in flight and exits 130: the files
 * already finished stay, and no half-written one appears.
 */
import { readFile, stat, unlink } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Config } from '../config.ts'
import { AppError } from '../errors/app-error.ts'
import type { CompressOptions } from '../options/schema.ts'
import type { CompressArgs } from './compress-args.ts'
import { startEngine, type CliEngine } from './engine.ts'
import type { FileOutcome } from './file-report.ts'
import { collectInputs, type InputFile } from './inputs.ts'
import { outputPathOf, removeTemporaryFiles, stopWriting, writeOutput } from './outputs.ts'
import { problemOf } from './problems.ts'
import { createReporter } from './reporter.ts'

export const EXIT = { done: 0, someFailed: 1, usage: 2, interrupted: 130 } as const

export interface Batch {
  readonly args: CompressArgs
  readonly options: CompressOptions
  readonly overlay?: Uint8Array
  readonly config: Config
}

function onInterrupt(engine: CliEngine): void {
  process.on('SIGINT', () => {
    stopWriting()
    removeTemporaryFiles()
    // The workers go with the batch; a moment for them, then the conventional 128 + SIGINT.
    const exit = () => process.exit(EXIT.interrupted)
    setTimeout(exit, 1000).unref()
    engine.stop().then(exit, exit)
  })
}

/** The file's bytes, within the upload limit the server applies (a 10 GB file is never read whole). */
async function readInput(path: string, maxBytes: number): Promise<Uint8Array> {
  const { size } = await stat(path)
  if (size > maxBytes)
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `expected an image of at most ${maxBytes} bytes (IMGAPI_MAX_UPLOAD_BYTES), received a file of ${size} bytes`,
    )
  return new Uint8Array(await readFile(path))
}

async function compressFile(file: InputFile, batch: Batch, engine: CliEngine): Promise<FileOutcome> {
  const { args } = batch
  try {
    const input = await readInput(file.path, batch.config.maxUploadBytes)
    const result = await engine.compress(input, batch.options, batch.overlay)
    const output = outputPathOf(file, result.outputFormat, args)
    const same = resolve(output) === resolve(file.path)
    // In place, a kept original is already where it belongs.
    const write = !args.dryRun && !(same && result.kind === 'original')
    if (write) await writeOutput(output, result.data, args.overwrite || same)
    // In place with a new format: the new file is written first, then the old one goes.
    if (!args.dryRun && args.inPlace && !same) await unlink(file.path)
    return { file: file.path, output, written: write, result }
  } catch (error) {
    return { file: file.path, ...problemOf(error) }
  }
}

export async function runBatch(batch: Batch): Promise<number> {
  const { files, missing } = await collectInputs(batch.args.inputs, batch.args.out)
  const reporter = createReporter(files.length + missing.length, {
    json: batch.args.json,
    imageOnStdout: false,
  })
  for (const input of missing)
    reporter.report({ file: input.path, code: 'NOT_READABLE', detail: input.detail })
  // No more workers than files: on one small file, a second worker would only cost start-up.
  const workers = Math.max(1, Math.min(batch.config.workers, files.length))
  const engine = startEngine({ ...batch.config, workers })
  onInterrupt(engine)
  let next = 0
  const lane = async () => {
    while (next < files.length) {
      const file = files[next++]!
      reporter.working(file.path)
      reporter.report(await compressFile(file, batch, engine))
    }
  }
  await Promise.all(Array.from({ length: workers }, lane))
  await engine.stop()
  const totals = reporter.finish()
  return totals.failed > 0 ? EXIT.someFailed : EXIT.done
}

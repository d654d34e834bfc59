/*
 * Peak memory by pipeline. Each measurement is a fresh process (child.ts), so
 * one image's peak never hides in another's, and starts from a file, as the server starts from
 * an upload: decode, orient, optionally resize, encode.
 */
import { resolve } from 'node:path'
import { medianOf } from '../common/figures.ts'
import { repeatWithin, type Budget } from './budget.ts'
import type { MemoryCase } from './cases.ts'
import type { MemoryJob, MemoryReading } from './child.ts'

const CHILD = resolve(import.meta.dir, 'child.ts')

export interface MemoryResult {
  readonly pipeline: string
  readonly input: string
  readonly inputMegapixels: number
  readonly outputMegapixels: number
  readonly runs: readonly MemoryReading[]
  readonly baselineMiB: number
  /** Median rise of VmHWM over the child's own baseline. */
  readonly increaseMiB: number
  /** Per megapixel of the larger of input and output (all frames): the one that sizes the buffers. */
  readonly mibPerMegapixel: number
}

/** The child's reading, and how long the child took in all (start-up included) for the budget. */
async function runChild(job: MemoryJob): Promise<{ reading: MemoryReading; seconds: number }> {
  const started = performance.now()
  const child = Bun.spawn([process.execPath, CHILD, JSON.stringify(job)], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const [text, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
  if (code !== 0) throw new Error(`memory child exited with ${code} for ${JSON.stringify(job)}`)
  const reading = JSON.parse(text.trim().split('\n').at(-1) ?? '') as MemoryReading
  return { reading, seconds: (performance.now() - started) / 1000 }
}

function summarise(memoryCase: MemoryCase, runs: readonly MemoryReading[]): MemoryResult {
  const increaseMiB = medianOf(runs, (run) => run.peakMiB - run.baselineMiB)
  const outputMegapixels = medianOf(runs, (run) => run.outputMegapixels)
  const { input } = memoryCase
  return {
    pipeline: memoryCase.pipeline,
    input: input.label,
    inputMegapixels: input.megapixels,
    outputMegapixels,
    runs,
    baselineMiB: medianOf(runs, (run) => run.baselineMiB),
    increaseMiB,
    mibPerMegapixel: increaseMiB / Math.max(input.megapixels, outputMegapixels),
  }
}

/**
 * Runs the cases in order; a pipeline's later (larger) cases are skipped once the prediction
 * passes the budget's cap, but its first case always runs.
 */
export async function measureMemory(
  cases: readonly MemoryCase[],
  budget: Budget,
  log: (line: string) => void,
): Promise<MemoryResult[]> {
  const results: MemoryResult[] = []
  for (const memoryCase of cases) {
    const name = `${memoryCase.pipeline} (${memoryCase.input.label})`
    const seen = results.some((result) => result.pipeline === memoryCase.pipeline)
    if (seen && memoryCase.predictedSeconds > budget.capSeconds) {
      log(`memory ${name}: skipped (predicted ${memoryCase.predictedSeconds.toFixed(0)} CPU s)`)
      continue
    }
    const runs = (
      await repeatWithin(
        budget,
        () => runChild(memoryCase.job),
        (run) => run.seconds,
      )
    ).map((run) => run.reading)
    const result = summarise(memoryCase, runs)
    if (runs.some((run) => !run.peakWasReset)) log(`memory ${name}: VmHWM could not be reset; a lower bound`)
    log(`memory ${name}: +${result.increaseMiB.toFixed(0)} MiB (${runs.length} runs)`)
    results.push(result)
  }
  return results
}

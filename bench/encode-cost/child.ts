/*
 * One memory measurement, alone in a fresh process so that no other image's peak is mixed in:
 * decode a file, optionally resize, encode, and print the rise of the peak resident set (VmHWM)
 * as one JSON line. Started by memory.ts; the job comes as JSON in argv[2].
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { sharp } from '../../src/image/sharp.ts'
import { procStatusBytes } from '../common/proc.ts'
import { applyEncode, type EncodeSpec } from './encodes.ts'

export interface MemoryJob {
  readonly input: string
  readonly encode: EncodeSpec
  readonly animated: boolean
  readonly resize?: { readonly width: number; readonly height?: number; readonly fit: 'fill' | 'inside' }
}

export interface MemoryReading {
  readonly baselineMiB: number
  readonly peakMiB: number
  /** False when the kernel refused to reset VmHWM: the rise is then a lower bound. */
  readonly peakWasReset: boolean
  readonly seconds: number
  readonly outputMegapixels: number
}

function statusMiB(field: 'VmHWM' | 'VmRSS'): number {
  const bytes = procStatusBytes('self', field)
  if (bytes === undefined) throw new Error(`/proc/self/status has no ${field} line`)
  return bytes / 2 ** 20
}

/**
 * Bun's start-up briefly peaks above the RSS it then settles at, so the peak before the encode
 * would hide the first tens of MiB it uses. Writing 5 to clear_refs (Linux 4.0+) sets VmHWM back
 * to the current RSS.
 */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
}

async function measure(job: MemoryJob): Promise<MemoryReading> {
  // Held before the baseline, as the server holds the upload before the job starts.
  const input = readFileSync(job.input)
  const peakWasReset = resetPeak()
  const baselineMiB = statusMiB('VmHWM')
  const started = performance.now()
  // As src/image/pipeline.ts opens and orients every image.
  let image = sharp(input, { animated: job.animated, failOn: 'truncated' }).autoOrient()
  if (job.resize) image = image.resize(job.resize)
  const { info } = await applyEncode(image, job.encode).toBuffer({ resolveWithObject: true })
  const seconds = (performance.now() - started) / 1000
  const outputMegapixels = (info.width * info.height) / 1e6
  return { baselineMiB, peakMiB: statusMiB('VmHWM'), peakWasReset, seconds, outputMegapixels }
}

if (import.meta.main) {
  const job = JSON.parse(process.argv[2] ?? '') as MemoryJob
  console.log(JSON.stringify(await measure(job)))
}

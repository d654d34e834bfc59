/*
 * Encode time by size: the photo is resized once, beforehand, to raw pixels held in memory, so
 * the clock sees only the encoder. CPU time is read too: with one libvips thread per image the
 * encode should use one core, and CPU ÷ wall shows whether an encoder starts threads of its own.
 */
import { cpuUsage } from 'node:process'
import { sharp } from '../../src/image/sharp.ts'
import { medianOf } from '../common/figures.ts'
import { repeatWithin, shouldMeasure, type Budget } from './budget.ts'
import { applyEncode, describeEncode, type EncodeSpec } from './encodes.ts'

export interface RawImage {
  readonly source: string
  readonly width: number
  readonly height: number
  readonly channels: 1 | 2 | 3 | 4
  readonly data: Buffer
  readonly megapixels: number
  /** The photo at its own size rather than resized. */
  readonly fullSize: boolean
}

export interface TimedRun {
  readonly seconds: number
  readonly cpuSeconds: number
  readonly bytes: number
}

export interface SizeTiming {
  readonly megapixels: number
  readonly width: number
  readonly height: number
  readonly fullSize: boolean
  readonly runs: readonly TimedRun[]
  readonly medianSeconds: number
  readonly medianCpuSeconds: number
  readonly secondsPerMegapixel: number
  readonly cpuSecondsPerMegapixel: number
  readonly cpuPerWall: number
}

export interface SeriesTiming {
  readonly encode: EncodeSpec
  readonly label: string
  readonly sizes: readonly SizeTiming[]
}

/** The photo at about `megapixels` (same aspect ratio), or at its own size when undefined. */
export async function rawAt(path: string, megapixels?: number): Promise<RawImage> {
  const { width = 0, height = 0 } = await sharp(path).metadata()
  let image = sharp(path).autoOrient()
  if (megapixels !== undefined)
    image = image.resize({ width: Math.round(Math.sqrt((megapixels * 1e6 * width) / height)) })
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return {
    source: path,
    width: info.width,
    height: info.height,
    channels: info.channels,
    data,
    megapixels: (info.width * info.height) / 1e6,
    fullSize: megapixels === undefined,
  }
}

/** Content no encoder can predict, the costliest a client can send: 16:9 Gaussian noise. */
export async function noiseAt(megapixels: number): Promise<RawImage> {
  const width = Math.round(Math.sqrt((megapixels * 1e6 * 16) / 9))
  const height = Math.round((width * 9) / 16)
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 60 }
  // The type asks for a background; with noise, libvips has no use for it.
  const create = { width, height, channels: 3 as const, noise, background: '#000000' }
  const data = await sharp({ create }).raw().toBuffer()
  const source = 'gaussian noise'
  return { source, width, height, channels: 3, data, megapixels: (width * height) / 1e6, fullSize: false }
}

export async function timeEncode(raw: RawImage, spec: EncodeSpec): Promise<TimedRun> {
  const { width, height, channels } = raw
  const image = applyEncode(sharp(raw.data, { raw: { width, height, channels } }), spec)
  const cpuBefore = cpuUsage()
  const started = performance.now()
  const output = await image.toBuffer()
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuUsage(cpuBefore)
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, bytes: output.length }
}

function summarise(raw: RawImage, runs: readonly TimedRun[]): SizeTiming {
  const medianSeconds = medianOf(runs, (run) => run.seconds)
  const medianCpuSeconds = medianOf(runs, (run) => run.cpuSeconds)
  return {
    megapixels: raw.megapixels,
    width: raw.width,
    height: raw.height,
    fullSize: raw.fullSize,
    runs,
    medianSeconds,
    medianCpuSeconds,
    secondsPerMegapixel: medianSeconds / raw.megapixels,
    cpuSecondsPerMegapixel: medianCpuSeconds / raw.megapixels,
    cpuPerWall: medianOf(runs, (run) => run.cpuSeconds / run.seconds),
  }
}

/**
 * One encode at every size, smallest first; each size's CPU time is predicted from the previous
 * one's cost per megapixel, and sizes beyond the budget are left for extrapolation.
 */
export async function timeSeries(
  spec: EncodeSpec,
  raws: readonly RawImage[],
  budget: Budget,
  log: (line: string) => void,
): Promise<SeriesTiming> {
  const label = describeEncode(spec)
  const sizes: SizeTiming[] = []
  for (const raw of raws) {
    const previous = sizes.at(-1)
    const predicted = previous ? previous.cpuSecondsPerMegapixel * raw.megapixels : 0
    if (!shouldMeasure(budget, predicted, sizes.length)) {
      log(`${label} at ${raw.megapixels.toFixed(1)} MP: skipped (predicted ${predicted.toFixed(0)} CPU s)`)
      continue
    }
    const size = summarise(
      raw,
      await repeatWithin(
        budget,
        () => timeEncode(raw, spec),
        (run) => run.cpuSeconds,
      ),
    )
    log(
      `${label} at ${raw.megapixels.toFixed(1)} MP: ${size.medianSeconds.toFixed(2)} s (${size.runs.length} runs)`,
    )
    sizes.push(size)
  }
  return { encode: spec, label, sizes }
}

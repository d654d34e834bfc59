import type { CompressOptions } from '../options/schema.ts'
import { chooseResult, type ResultKind } from './choose-result.ts'
import type { FormatId, OutputFormat } from './format-table.ts'
import { assertWithinLimits, type ImageLimits } from './limits.ts'
import { runPipeline } from './pipeline.ts'
import { planJob } from './plan.ts'
import { probeImage } from './probe.ts'
import type { JobQueue } from './queue.ts'

export interface CompressDeps {
  readonly queue: JobQueue
  readonly limits: ImageLimits & { readonly maxUploadBytes: number; readonly jobTimeoutMs: number }
}

export interface CompressResult {
  readonly data: Uint8Array
  readonly kind: ResultKind
  readonly inputFormat: FormatId
  readonly outputFormat: OutputFormat
  readonly inputBytes: number
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly quality?: number
  readonly ignored: readonly string[]
  /** Milliseconds spent waiting for a worker and working, for Server-Timing. */
  readonly timings: { readonly probe: number; readonly queue: number; readonly process: number }
}

/**
 * The whole job, free of HTTP: probe the header, plan, check limits (all before any pixel
 * is decoded), then decode/transform/encode on a worker and apply the never-larger rule.
 */
export async function compressImage(
  input: Uint8Array,
  options: CompressOptions,
  deps: CompressDeps,
): Promise<CompressResult> {
  const { limits, queue } = deps
  const t0 = performance.now()
  const probe = await probeImage(input, limits.maxUploadBytes)
  const plan = planJob(options, probe, limits)
  assertWithinLimits(probe, plan, limits)
  const t1 = performance.now()
  let started = t1
  const chosen = await queue.run(async () => {
    started = performance.now()
    const encoded = await runPipeline(input, probe, plan, {
      maxInputPixels: limits.maxInputPixels,
      timeoutSeconds: Math.max(1, Math.ceil(limits.jobTimeoutMs / 1000)),
    })
    return chooseResult(input, probe, plan, encoded)
  }, limits.jobTimeoutMs)
  const t2 = performance.now()
  return {
    data: chosen.data,
    kind: chosen.kind,
    inputFormat: probe.format,
    outputFormat: plan.format,
    inputBytes: input.length,
    width: chosen.width,
    height: chosen.height,
    frames: chosen.frames,
    quality: chosen.kind === 'compressed' ? plan.quality : undefined,
    ignored: plan.ignored,
    timings: { probe: t1 - t0, queue: started - t1, process: t2 - started },
  }
}

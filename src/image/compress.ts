import { AppError } from '../errors/app-error.ts'
import type { CompressOptions } from '../options/schema.ts'
import { chooseAutoResult, chooseResult, type ResultKind } from './choose-result.ts'
import type { FormatId, OutputFormat } from '../formats/format-table.ts'
import type { FormatChoice } from './candidates.ts'
import type { ImageLimits } from './limits.ts'
import { estimateJobBytes } from './memory-cost.ts'
import type { Similarity } from './search/index.ts'
import { probeOverlay } from './overlay-input.ts'
import { planCandidates } from './plan-candidates.ts'
import type { PlanLimits } from './plan.ts'
import { probeImage } from './probe.ts'
import type { RunOptions } from './queue.ts'
import type { JobExecutor } from './executor.ts'

/** Where jobs run: a JobQueue, or a Ticket a request took from one. */
export interface JobRunner {
  run<T>(job: () => Promise<T>, options: RunOptions): Promise<T>
}

export interface CompressLimits extends ImageLimits, PlanLimits {
  readonly maxUploadBytes: number
  readonly jobTimeoutMs: number
  /** How long a job may wait for a worker before it is refused as load. */
  readonly queueTimeoutMs: number
  readonly decodeBudgetBytes: number
}

export interface CompressDeps {
  /** Who may run when: a JobQueue, or a Ticket a request took from one. */
  readonly runner: JobRunner
  /** Where the pixels are worked: this process, or a worker process. */
  readonly executor: JobExecutor
  readonly limits: CompressLimits
  /** For format=auto: what the client said it can show. */
  readonly formats?: FormatChoice
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
  /** Encodes the job took: 1, or how many a search tried. */
  readonly encodes: number
  /** When allowResize scaled the image down to meet maxBytes. */
  readonly resizedTo?: { readonly width: number; readonly height: number }
  /** How close the output is to the (transformed) input, when a search measured it. */
  readonly similarity?: Similarity
  /** Milliseconds spent waiting for a worker and working, for Server-Timing. */
  readonly timings: { readonly probe: number; readonly queue: number; readonly process: number }
}

const MIB = 1024 * 1024

function assertFitsBudget(costBytes: number, budgetBytes: number): void {
  if (costBytes <= budgetBytes) return
  throw new AppError(
    'IMAGE_TOO_LARGE',
    `expected a job that needs at most ${Math.floor(budgetBytes / MIB)} MiB to decode and encode (the server's decode budget), this one needs about ${Math.ceil(costBytes / MIB)} MiB; send a smaller image or ask for a smaller width or height`,
  )
}

/**
 * The whole job, free of HTTP: probe the header, plan, check limits and estimate memory (all
 * before any pixel is decoded), then decode/transform/encode on a worker and apply the
 * never-larger rule.
 */
export async function compressImage(
  input: Uint8Array,
  options: CompressOptions,
  deps: CompressDeps,
  /** A watermark (the multipart field `overlay`): its bytes travel beside the input's. */
  overlay?: Uint8Array,
): Promise<CompressResult> {
  const { limits, runner } = deps
  const t0 = performance.now()
  const probe = await probeImage(input, limits.maxUploadBytes)
  const overlayProbe = overlay ? await probeOverlay(overlay, limits) : undefined
  const jobs = planCandidates(options, probe, limits, deps.formats ?? {}, overlayProbe)
  const costBytes = Math.max(...jobs.map((job) => estimateJobBytes(probe, job.plan, job.out, overlayProbe)))
  assertFitsBudget(costBytes, limits.decodeBudgetBytes)
  const t1 = performance.now()
  let started = t1
  const { executor } = deps
  const job = () => {
    started = performance.now()
    const pipeline = {
      maxInputPixels: limits.maxInputPixels,
      timeoutSeconds: Math.max(1, Math.ceil(limits.jobTimeoutMs / 1000)),
    }
    return executor.produce(
      { input, probe, candidates: jobs.map((job) => job.plan), pipeline, ...(overlay ? { overlay } : {}) },
      { timeoutMs: limits.jobTimeoutMs, costBytes },
    )
  }
  const produced = await runner.run(job, {
    costBytes,
    waitTimeoutMs: limits.queueTimeoutMs,
    // A worker process is killed at its time by the executor; in this process the queue answers.
    ...(executor.enforcesTimeout ? {} : { timeoutMs: limits.jobTimeoutMs }),
  })
  // The never-larger decision is the server's, on what the job produced.
  const chosen =
    options.format === 'auto'
      ? chooseAutoResult(input, probe, produced, new Set(jobs.map((job) => job.plan.format)))
      : chooseResult(input, probe, produced.plan, produced.encoded)
  const t2 = performance.now()
  return {
    data: chosen.data,
    kind: chosen.kind,
    inputFormat: probe.format,
    // The input itself (or its optimisation) answers in the input's format.
    outputFormat: chosen.kind === 'compressed' ? produced.plan.format : (probe.format as OutputFormat),
    inputBytes: input.length,
    width: chosen.width,
    height: chosen.height,
    frames: chosen.frames,
    quality: chosen.kind === 'compressed' ? produced.plan.quality : undefined,
    ignored: produced.ignored,
    encodes: produced.encodes,
    ...(produced.resizedTo ? { resizedTo: produced.resizedTo } : {}),
    // What was measured describes the encode; the input returned instead is identical to itself.
    ...(produced.similarity
      ? {
          similarity:
            chosen.kind === 'compressed' ? produced.similarity : { metric: 'ssim' as const, score: 1 },
        }
      : {}),
    timings: { probe: t1 - t0, queue: started - t1, process: t2 - started },
  }
}

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
import type { JobPlan, PlanLimits } from './plan.ts'
import type { PartOutcome } from './produce-parts.ts'
import type { Produced } from './produce.ts'
import { probeImage, type ImageProbe } from './probe.ts'
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

export function assertFitsBudget(costBytes: number, budgetBytes: number): void {
  if (costBytes <= budgetBytes) return
  throw new AppError(
    'IMAGE_TOO_LARGE',
    `expected a job that needs at most ${Math.floor(budgetBytes / MIB)} MiB to decode and encode (the server's decode budget), this one needs about ${Math.ceil(costBytes / MIB)} MiB; send a smaller image or ask for a smaller width or height`,
  )
}

/** The job's facts a result is read from: what was asked, what the header said, the plans tried. */
interface PartPlan {
  readonly autoFormat: boolean
  readonly plans: readonly JobPlan[]
}

/** One part's produced image through the never-larger rule, as the answer describes it. */
export function resultOf(
  input: Uint8Array,
  probe: ImageProbe,
  part: PartPlan,
  produced: Produced,
  timings: CompressResult['timings'],
): CompressResult {
  // The never-larger decision is the server's, on what the job produced.
  const chosen = part.autoFormat
    ? chooseAutoResult(input, probe, produced, new Set(part.plans.map((plan) => plan.format)))
    : chooseResult(input, probe, produced.plan, produced.encoded)
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
    timings,
  }
}

export interface ProbedInput {
  readonly input: Uint8Array
  readonly probe: ImageProbe
  readonly overlay?: { readonly bytes: Uint8Array; readonly probe: ImageProbe }
  readonly probeMs: number
}

/** Reads the input's header (and the watermark's) once, before anything is planned. */
export async function probeInput(
  input: Uint8Array,
  limits: CompressLimits,
  overlay?: Uint8Array,
): Promise<ProbedInput> {
  const t0 = performance.now()
  const probe = await probeImage(input, limits.maxUploadBytes)
  const overlayProbe = overlay ? await probeOverlay(overlay, limits) : undefined
  return {
    input,
    probe,
    ...(overlay && overlayProbe ? { overlay: { bytes: overlay, probe: overlayProbe } } : {}),
    probeMs: performance.now() - t0,
  }
}

export interface RanJob {
  readonly outcomes: readonly PartOutcome[]
  readonly timings: CompressResult['timings']
}

/** Runs the parts as one job, once admission has room for its memory; each part's outcome. */
export async function runParts(
  probed: ProbedInput,
  parts: readonly (readonly JobPlan[])[],
  costBytes: number,
  deps: CompressDeps,
  /** Parts run at once: admission's costBytes counts that many. */
  concurrency = 1,
): Promise<RanJob> {
  const { limits, runner, executor } = deps
  assertFitsBudget(costBytes, limits.decodeBudgetBytes)
  const t1 = performance.now()
  let started = t1
  const job = () => {
    started = performance.now()
    const pipeline = {
      maxInputPixels: limits.maxInputPixels,
      timeoutSeconds: Math.max(1, Math.ceil(limits.jobTimeoutMs / 1000)),
    }
    const overlay = probed.overlay ? { overlay: probed.overlay.bytes } : {}
    return executor.produce(
      { input: probed.input, probe: probed.probe, parts, pipeline, concurrency, ...overlay },
      { timeoutMs: limits.jobTimeoutMs, costBytes },
    )
  }
  const outcomes = await runner.run(job, {
    costBytes,
    waitTimeoutMs: limits.queueTimeoutMs,
    // A worker process is killed at its time by the executor; in this process the queue answers.
    ...(executor.enforcesTimeout ? {} : { timeoutMs: limits.jobTimeoutMs }),
  })
  const t2 = performance.now()
  return { outcomes, timings: { probe: probed.probeMs, queue: started - t1, process: t2 - started } }
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
  const probed = await probeInput(input, deps.limits, overlay)
  const { probe } = probed
  const overlayProbe = probed.overlay?.probe
  const jobs = planCandidates(options, probe, deps.limits, deps.formats ?? {}, overlayProbe)
  const costBytes = Math.max(...jobs.map((job) => estimateJobBytes(probe, job.plan, job.out, overlayProbe)))
  const plans = jobs.map((job) => job.plan)
  const ran = await runParts(probed, [plans], costBytes, deps)
  const outcome = ran.outcomes[0]!
  if ('error' in outcome) throw outcome.error
  return resultOf(
    input,
    probe,
    { autoFormat: options.format === 'auto', plans },
    outcome.produced,
    ran.timings,
  )
}

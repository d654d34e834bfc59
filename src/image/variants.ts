import { AppError } from '../errors/app-error.ts'
import type { FormatId } from '../formats/format-table.ts'
import type { CompressOptions } from '../options/schema.ts'
import type { VariantOptions } from '../options/variants.ts'
import { probeInput, resultOf, runParts, type CompressDeps, type CompressResult } from './compress.ts'
import { estimateJobBytes } from './memory-cost.ts'
import { planCandidates, type PlannedJob } from './plan-candidates.ts'
import { LIST_CONCURRENCY, shareGroups } from './produce-parts.ts'

/**
 * The output pixels of a whole list may add up to this many times IMGAPI_MAX_OUTPUT_PIXELS: a
 * srcset of three widths in three formats from a 24 MP photo, its largest at full size, comes to
 * about 110 MP, and one request alone may already produce the limit.
 */
export const VARIANT_OUTPUT_PIXELS_FACTOR = 2

/** What a shared run keeps while its variants encode: 8-bit samples, at most 4 a pixel. */
const SHARED_BYTES_PER_PIXEL = 4

export type VariantOutcome = { readonly result: CompressResult } | { readonly error: AppError }

export interface VariantsResult {
  readonly inputFormat: FormatId
  readonly inputBytes: number
  /** In the order of the request's variants. */
  readonly variants: readonly VariantOutcome[]
  readonly timings: CompressResult['timings']
}

/** A variant's planning error, named by its place in the list. */
function atVariant(index: number, error: unknown): unknown {
  if (!(error instanceof AppError)) return error
  const at = `variants[${index}]`
  return new AppError(error.code, `${at}: ${error.detail}`, {
    ...(error.errors ? { errors: error.errors.map((e) => ({ ...e, name: `${at}.${e.name}` })) } : {}),
    headers: error.headers,
  })
}

/** Each variant's options: the request's, with the entry's over them. */
function variantOptions(options: CompressOptions, variant: VariantOptions): CompressOptions {
  const { variants: _, ...shared } = options
  return { ...shared, ...variant } as CompressOptions
}

/** The `count` largest of the values, added up. */
function sumOfLargest(values: readonly number[], count: number): number {
  return [...values]
    .sort((a, b) => b - a)
    .slice(0, count)
    .reduce((sum, value) => sum + value, 0)
}

function outputPixels(jobs: readonly PlannedJob[]): number {
  return Math.max(...jobs.map(({ out }) => out.width * out.height * out.frames))
}

/**
 * Several outputs from one upload, free of HTTP. The input is read and probed once; every
 * variant is planned and checked against the limits before any pixel is decoded (a bad variant
 * fails the request, named by its place); then the list runs as one job on one worker, whose
 * time covers the whole list. Each variant obeys every rule a request alone obeys, and comes out
 * byte for byte as that request would; one that fails (a maxBytes it cannot reach, the job's
 * time running out before it) is reported with its problem while the others are answered.
 */
export async function compressVariants(
  input: Uint8Array,
  options: CompressOptions,
  variants: readonly VariantOptions[],
  deps: CompressDeps,
  overlay?: Uint8Array,
): Promise<VariantsResult> {
  const probed = await probeInput(input, deps.limits, overlay)
  const { probe } = probed
  const overlayProbe = probed.overlay?.probe
  const planned = variants.map((variant, index) => {
    const merged = variantOptions(options, variant)
    // format=auto picks among the variant's `formats`, or every web format: the request's
    // Accept header names the answer's container (a ZIP, JSON), not an image type.
    const listed = merged.formats?.split(',').map((name) => name.trim())
    try {
      return {
        merged,
        jobs: planCandidates(merged, probe, deps.limits, listed ? { listed } : {}, overlayProbe),
      }
    } catch (error) {
      throw atVariant(index, error)
    }
  })
  const total = planned.reduce((sum, { jobs }) => sum + outputPixels(jobs), 0)
  const most = deps.limits.maxOutputPixels * VARIANT_OUTPUT_PIXELS_FACTOR
  if (total > most)
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `expected the variants' outputs to add up to at most ${most} pixels (${VARIANT_OUTPUT_PIXELS_FACTOR} x IMGAPI_MAX_OUTPUT_PIXELS), these add up to ${total}; ask for fewer or smaller outputs`,
    )
  const parts = planned.map(({ jobs }) => jobs.map((job) => job.plan))
  // LIST_CONCURRENCY parts at once peak at that many of the largest parts, plus the pixels that
  // as many shared groups keep while their variants encode; a list that would not fit the
  // half the decode budget that way (leaving the rest to other requests) runs one part at a
  // time, as a request alone does.
  const costs = planned.map(({ jobs }) =>
    Math.max(...jobs.map((job) => estimateJobBytes(probe, job.plan, job.out, overlayProbe))),
  )
  const keeps = shareGroups(parts)
    .filter((group) => group.length > 1)
    .map((group) => outputPixels(planned[group[0]!]!.jobs) * SHARED_BYTES_PER_PIXEL)
  const costAt = (concurrency: number) => sumOfLargest(costs, concurrency) + sumOfLargest(keeps, concurrency)
  const concurrency = costAt(LIST_CONCURRENCY) <= deps.limits.decodeBudgetBytes / 2 ? LIST_CONCURRENCY : 1
  const ran = await runParts(probed, parts, costAt(concurrency), deps, concurrency)
  const outcomes = ran.outcomes.map((outcome, index): VariantOutcome => {
    if ('error' in outcome) return outcome
    const autoFormat = planned[index]!.merged.format === 'auto'
    try {
      return {
        result: resultOf(input, probe, { autoFormat, plans: parts[index]! }, outcome.produced, ran.timings),
      }
    } catch (error) {
      if (error instanceof AppError) return { error }
      throw error
    }
  })
  return { inputFormat: probe.format, inputBytes: input.length, variants: outcomes, timings: ran.timings }
}

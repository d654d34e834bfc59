import type { OptionName } from '../options/schema.ts'
import type { JobClock } from './job-clock.ts'
import { runPipeline, type EncodedImage, type PipelineOptions } from './pipeline.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { searchEncode, type Similarity } from './search/index.ts'

/** What the job produced, before the never-larger rule: the encode and the settings it used. */
export interface Produced {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
  /** Encodes it took: one, or a search's count. */
  readonly encodes: number
  readonly resizedTo?: { readonly width: number; readonly height: number }
  readonly ignored: readonly OptionName[]
  /** Measured when a search ran. */
  readonly similarity?: Similarity
  /** False when format=auto found no candidate that reaches the level. */
  readonly reachedLevel: boolean
}

/**
 * A search may use this share of the job timeout: the rest is the margin for the steps after it
 * (the never-larger check, a re-encode with metadata) and for an estimate that fell short.
 */
const SEARCH_SHARE = 0.7
/** Encodes one request may cost, whatever the time left: a search lands in 3 to 8, format=auto in up to 15. */
const MAX_ENCODES = 16

/**
 * One encode for a plain request; a search for a byte target or a similarity level. The search encodes bare pixels, so
 * with metadata=keep the chosen settings are encoded once more with the metadata, unless that
 * no longer fits the target: then the metadata goes and the response lists it as ignored.
 */
export interface ProduceOptions extends PipelineOptions {
  /** How the job's time is counted (job-clock.ts). */
  readonly clock: JobClock
  /** The time on `clock` by which a search returns its best so far. */
  readonly deadline: number
  /** Told of each better answer a search finds that meets the request, before it ends. */
  readonly onBest?: (best: Produced) => void
}

export async function produce(
  input: Uint8Array,
  probe: ImageProbe,
  candidates: readonly JobPlan[],
  pipeline: ProduceOptions,
): Promise<Produced> {
  const plan = candidates[0]!
  if (!plan.goal) {
    return {
      plan,
      encoded: await runPipeline(input, probe, plan, pipeline),
      encodes: 1,
      ignored: plan.ignored,
      reachedLevel: true,
    }
  }
  const maxBytes = plan.goal.maxBytes ?? Infinity
  // With metadata=keep the answer is encoded once more, with its metadata, within the cap.
  const maxEncodes = MAX_ENCODES - (plan.metadata !== 'strip' ? 1 : 0)
  const { onBest } = pipeline
  const outcome = await searchEncode(input, probe, candidates, {
    ...pipeline,
    maxEncodes,
    // Found on the way, without metadata: an answer only if the job is stopped before the end.
    onBest: onBest && ((best) => onBest({ ...best, ignored: metadataDropped(best.plan) })),
  })
  const found: Produced = { ...outcome, ignored: outcome.plan.ignored }
  if (plan.metadata === 'strip') return found
  const dropMetadata = { ...found, ignored: [...found.ignored, 'metadata' as const] }
  if (outcome.resizedTo) return dropMetadata
  const withMetadata = await runPipeline(input, probe, outcome.plan, pipeline)
  if (withMetadata.data.length > maxBytes) return dropMetadata
  return { ...found, encoded: withMetadata, encodes: outcome.encodes + 1 }
}

function metadataDropped(plan: JobPlan): Produced['ignored'] {
  return plan.metadata !== 'strip' ? [...plan.ignored, 'metadata'] : plan.ignored
}

export function searchDeadline(runAt: number, jobTimeoutMs: number): number {
  return runAt + jobTimeoutMs * SEARCH_SHARE
}

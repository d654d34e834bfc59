import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import type { Sharp } from '../sharp.ts'

export interface StepContext {
  readonly image: Sharp
  readonly probe: ImageProbe
  readonly plan: JobPlan
}

/** One small stage of the pipeline: configures the sharp chain, does no I/O. */
export type PipelineStep = (context: StepContext) => void

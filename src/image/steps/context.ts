import type { OptionName } from '../../options/schema.ts'
import type { JobPlan } from '../job-plan.ts'
import type { ImageProbe } from '../probe.ts'
import type { Sharp } from '../sharp.ts'
import type { SharpStage } from './sharp-order.ts'

/** What a step decides from: the plan and the input's header, never the pixels. */
export interface StepFacts {
  readonly plan: JobPlan
  readonly probe: ImageProbe
}

/** The pixels as rendered between two sharp passes: one frame's size, and how many frames. */
export interface Rendered {
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly channels: number
  /** The samples, frame after frame, when they were carried raw (always for an animation). */
  readonly raw?: { readonly data: Uint8Array; readonly depth: 'uchar' | 'ushort' }
}

export interface StepContext extends StepFacts {
  /** The chain being configured; a fresh one, reading rendered pixels, after each render. */
  image: Sharp
  /** The input's bytes, for a step that reads more of its header (metadata=copyright). */
  readonly input: Uint8Array
  /** The watermark's bytes, when the request sent one (they travel beside the plan, never in it). */
  readonly overlay?: Uint8Array
  readonly timeoutSeconds: number
  /** Renders what is configured so far, continues from those pixels, and says their size. */
  render(): Promise<Rendered>
}

/**
 * One small stage of the pipeline. sharp runs the operations of one chain in an order of its
 * own, whatever order they were called in (sharp-order.ts); the runner renders the pixels
 * between two steps whenever sharp would otherwise run a later step before an earlier one.
 */
export interface PipelineStep {
  readonly name: string
  /** The options this step carries out (the registry test checks every option has a home). */
  readonly options: readonly OptionName[]
  /** Whether the plan asks anything of this step; when not, it is skipped. */
  applies(facts: StepFacts): boolean
  /** Whether, applying, it changes pixels: the never-larger rule cannot return the input then. */
  readonly changesPixels: boolean
  /** The first and last places in sharp's own order of what it configures. */
  stages(facts: StepFacts): readonly [SharpStage, SharpStage]
  /** Configures the chain; may render first when it needs the pixels' size. */
  apply(context: StepContext): void | Promise<void>
}

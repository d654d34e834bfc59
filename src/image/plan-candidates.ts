import { AppError } from '../errors/app-error.ts'
import type { AutoQuality, CompressOptions } from '../options/schema.ts'
import { defaultEffort } from '../formats/format-table.ts'
import { autoCandidates, type FormatChoice } from './candidates.ts'
import { tunablesFor } from './formats.ts'
import { assertWithinLimits, type ImageLimits, type OutputSize } from './limits.ts'
import { assertOverlayRoom } from './overlay-room.ts'
import { planJob, type JobPlan, type PlanLimits } from './plan.ts'
import type { ImageProbe } from './probe.ts'

/** The level format=auto compares formats at when the caller names none. */
export const DEFAULT_AUTO_FORMAT_LEVEL: AutoQuality = 'auto-high'

type CompressLimits = PlanLimits & ImageLimits

export interface PlannedJob {
  readonly plan: JobPlan
  readonly out: OutputSize
}

/** An effort the caller left to the server, chosen by the output's size where its format says so. */
function withSizedEffort(plan: JobPlan, options: CompressOptions, out: OutputSize): JobPlan {
  const effort = tunablesFor(plan.format).effort
  if (options.effort !== undefined || plan.effort === undefined || !effort?.defaultByPixels) return plan
  return { ...plan, effort: defaultEffort(effort, out.width * out.height * out.frames) }
}

function planOne(
  options: CompressOptions,
  probe: ImageProbe,
  limits: CompressLimits,
  overlay: ImageProbe | undefined,
): PlannedJob {
  const planned = planJob(options, probe, limits, overlay)
  const out = assertWithinLimits(probe, planned, limits)
  assertOverlayRoom(planned.overlay, out.width, out.height)
  return { plan: withSizedEffort(planned, options, out), out }
}

/**
 * The plans a request needs: one, or format=auto's candidates, each planned in its own format
 * and checked against the limits; a candidate a limit forbids (AVIF over its pixel cap) is
 * skipped rather than failing the request. format=auto compares formats by similarity, so its
 * quality is a level (auto, auto-high…), never a number, whose meaning differs per codec.
 */
export function planCandidates(
  options: CompressOptions,
  probe: ImageProbe,
  limits: CompressLimits,
  choice: FormatChoice,
  overlay?: ImageProbe,
): PlannedJob[] {
  if (options.format !== 'auto') return [planOne(options, probe, limits, overlay)]
  if (typeof options.quality === 'number') {
    const reason = `expected auto, auto-high, auto-medium or auto-low with format=auto (quality numbers mean different things per format), received ${options.quality}`
    throw new AppError('INVALID_PARAMETER', `quality: ${reason}`, { errors: [{ name: 'quality', reason }] })
  }
  // With a byte target and no level, the most preferred format that fits wins (AVIF before
  // WebP before JPEG or PNG: at one size, the newer codec looks better).
  const level = options.quality ?? (options.maxBytes === undefined ? DEFAULT_AUTO_FORMAT_LEVEL : undefined)
  const planned: PlannedJob[] = []
  let refused: unknown
  for (const format of autoCandidates(choice, probe)) {
    try {
      const job = planOne(
        { ...options, format, ...(level ? { quality: level } : {}) },
        probe,
        limits,
        overlay,
      )
      const ignored = job.plan.ignored.filter((name) => name !== 'formats')
      planned.push({
        ...job,
        plan: { ...job.plan, ignored, goal: { allowResize: options.allowResize, ...job.plan.goal, level } },
      })
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'IMAGE_TOO_LARGE')) throw error
      refused ??= error
    }
  }
  if (planned.length === 0) throw refused
  return planned
}

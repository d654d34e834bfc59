import { AppError } from '../errors/app-error.ts'
import { FORMAT_TABLE, type OutputFormat } from '../formats/format-table.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { produce, type ProduceOptions, type Produced } from './produce.ts'
import { decodePixels, encodePixels, type Pixels } from './search/index.ts'

/** What one part of a job (one output of `variants`, or the single output) ended with. */
export type PartOutcome = { readonly produced: Produced } | { readonly error: AppError }

export interface PartEvents {
  /** A part is finished: a worker sends it at once, so a later timeout cannot lose it. */
  readonly onPart?: (part: number, outcome: PartOutcome) => void
  /** A search's best answer so far, for the part it belongs to. */
  readonly onBest?: (part: number, best: Produced) => void
}

/**
 * Formats whose encode of the transformed pixels, rendered once, gives the very bytes of the
 * one-pass pipeline (tests/image/variants-sharing.test.ts checks it on every fixture, and the
 * corpus suite on the corpus). PNG and GIF quantise or filter differently from raw samples, and
 * an animation carries its timing through the chain: those run the one-pass pipeline each.
 */
const SHARED_ENCODES: ReadonlySet<OutputFormat> = new Set(['jpeg', 'webp', 'avif', 'tiff'])

/** The plan's fields that only the encoder reads. */
const ENCODER_FIELDS = new Set<string>([
  'format',
  'quality',
  'lossless',
  'effort',
  'progressive',
  'chromaSubsampling',
  'smartSubsample',
  'icoSizes',
  'goal',
  'colours',
  'dither',
  'scoredOnly',
  'ignored',
])

/**
 * Parts whose pixels before the encoder are the same share one decode, transform and resize,
 * when the shared path is known to give the one-pass bytes: a plain encode (no search), no
 * metadata carried, a still image, a format in SHARED_ENCODES. Otherwise undefined: the part
 * runs alone, exactly as the same request alone would.
 */
function shareKey(plan: JobPlan): string | undefined {
  if (plan.goal || plan.metadata !== 'strip' || plan.animated || !SHARED_ENCODES.has(plan.format))
    return undefined
  const pixels = Object.fromEntries(Object.entries(plan).filter(([name]) => !ENCODER_FIELDS.has(name)))
  // A turn's corners and rounded corners are transparent or painted by the output's alpha.
  const alpha =
    plan.rotate !== undefined || plan.radius !== undefined ? FORMAT_TABLE[plan.format].alpha : undefined
  return JSON.stringify({ pixels, alpha })
}

/** The parts in runs that share pixels, each run in the order of its first part. */
export function shareGroups(parts: readonly (readonly JobPlan[])[]): number[][] {
  const groups = new Map<string, number[]>()
  const order: number[][] = []
  parts.forEach((candidates, index) => {
    const key = candidates.length === 1 ? shareKey(candidates[0]!) : undefined
    const group = key === undefined ? undefined : groups.get(key)
    if (group) return group.push(index)
    const fresh = [index]
    if (key !== undefined) groups.set(key, fresh)
    order.push(fresh)
  })
  return order
}

const failed = (error: unknown): PartOutcome => {
  // Anything else is a fault of the server's, not of the part: the whole job fails.
  if (error instanceof AppError) return { error }
  throw error
}

/**
 * How many of a list's encodes may run at once, each on its own libvips thread. Two: a list then
 * answers in about half the time of its outputs one after another on a 2-CPU machine. Admission
 * counts that many of its largest parts and shared rasters (src/image/variants.ts), and a list
 * whose two at once would not fit the decode budget runs one at a time. One image alone keeps
 * one thread.
 */
export const LIST_CONCURRENCY = 2

/** One unit of a list's work: a part run alone, or one encode of a group's shared pixels. */
interface Task {
  readonly group: SharedGroup | undefined
  readonly part: number
}

/** A group's pixels: decoded by its first task, released when its last encode ends. */
interface SharedGroup {
  pixels?: Promise<Pixels>
  left: number
}

/** A part's side asked for: a proxy of its cost, Infinity when it keeps the input's size. */
function sideOf(plans: readonly JobPlan[]): number {
  const resize = plans[0]!.resize
  return resize ? Math.max(resize.width ?? 0, resize.height ?? 0) || Infinity : Infinity
}

/** Slower encoders first within a group, as with the groups: the runners then end together. */
const ENCODE_COST_RANK: Partial<Record<OutputFormat, number>> = { avif: 0, webp: 1, tiff: 2, jpeg: 3 }

/**
 * The groups, the largest first, each group's slowest encodes first: with two runners the
 * longest tasks start early and the short ones fill in, so the list ends sooner than in the
 * request's order. The order changes no bytes, only when each part is done.
 */
function largestFirst(groups: number[][], parts: readonly (readonly JobPlan[])[]): number[][] {
  const rank = (part: number) => ENCODE_COST_RANK[parts[part]![0]!.format] ?? 0
  return groups
    .map((members) => [...members].sort((a, b) => rank(a) - rank(b)))
    .sort((a, b) => sideOf(parts[b[0]!]!) - sideOf(parts[a[0]!]!))
}

/**
 * Every part of one job on one clock: the job's time covers the whole list, and each search
 * returns its best so far by the shared deadline. Tasks are taken in order, group by group, by
 * `concurrency` runners (1 unless asked), so at most that many groups hold pixels at once. A part that fails
 * is that part's answer; the others go on.
 */
export async function produceParts(
  input: Uint8Array,
  probe: ImageProbe,
  parts: readonly (readonly JobPlan[])[],
  options: Omit<ProduceOptions, 'onBest'> & { readonly concurrency?: number },
  events: PartEvents = {},
): Promise<PartOutcome[]> {
  const outcomes: PartOutcome[] = new Array(parts.length)
  const settle = (part: number, outcome: PartOutcome) => {
    outcomes[part] = outcome
    events.onPart?.(part, outcome)
  }
  const tasks: Task[] = largestFirst(shareGroups(parts), parts).flatMap((members) => {
    const group = members.length > 1 ? { left: members.length } : undefined
    return members.map((part) => ({ group, part }))
  })
  const run = async ({ group, part }: Task) => {
    const plans = parts[part]!
    if (!group) {
      const onBest = events.onBest && ((best: Produced) => events.onBest!(part, best))
      return settle(part, { produced: await produce(input, probe, plans, { ...options, onBest }) })
    }
    const plan = plans[0]!
    try {
      group.pixels ??= decodePixels(input, probe, plan, options)
      const encoded = await encodePixels(await group.pixels, probe, plan, options.timeoutSeconds)
      settle(part, { produced: { plan, encoded, encodes: 1, ignored: plan.ignored, reachedLevel: true } })
    } finally {
      if (--group.left === 0) group.pixels = undefined
    }
  }
  let next = 0
  const runner = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!
      try {
        await run(task)
      } catch (error) {
        settle(task.part, failed(error))
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 1, tasks.length) }, runner))
  return outcomes
}

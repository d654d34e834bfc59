import { AppError } from '../errors/app-error.ts'
import type { OutputFormat } from '../formats/format-table.ts'
import type { EncodedImage } from './pipeline.ts'
import type { JobPlan } from './plan.ts'
import type { ImageProbe } from './probe.ts'
import { changesPixels } from './steps/index.ts'
import { STRIPPERS } from './strip/index.ts'

export type ResultKind = 'compressed' | 'optimised' | 'original'

export interface ChosenResult extends EncodedImage {
  readonly kind: ResultKind
}

/**
 * True when returning the input's own pixels still honours the request: same size, no
 * rotation to apply, no frames to drop, and no step that changes pixels (a crop, a turn, a
 * mirror, an adjustment…): a rotate=180 whose encode is larger must not come back unrotated.
 * Metadata is decided separately.
 */
function inputPixelsSatisfy(probe: ImageProbe, plan: JobPlan, encoded: EncodedImage): boolean {
  return (
    encoded.width === probe.width &&
    encoded.height === probe.height &&
    probe.orientation === 1 &&
    (probe.frames === 1 || plan.animated) &&
    !changesPixels({ plan, probe })
  )
}

/**
 * The never-larger rule: when the output format is the input's and the re-encode is not
 * smaller, prefer a lossless optimisation of the input, or the input itself, whenever that
 * loses nothing the caller asked to remove. GPS and other metadata never survive `strip`.
 */
export function chooseResult(
  input: Uint8Array,
  probe: ImageProbe,
  plan: JobPlan,
  encoded: EncodedImage,
): ChosenResult {
  const compressed: ChosenResult = { ...encoded, kind: 'compressed' }
  if (plan.format !== probe.format || encoded.data.length < input.length) return compressed
  if (!inputPixelsSatisfy(probe, plan, encoded)) return compressed
  const asInput = { width: probe.width, height: probe.height, frames: probe.frames }
  if (plan.metadata === 'keep') return { ...asInput, data: input, kind: 'original' }
  // The strippers keep the ICC profile only: right for strip and icc, short of what copyright keeps.
  if (plan.metadata === 'copyright' && probe.hasPrivateMetadata) return compressed
  const stripper = STRIPPERS[plan.format]
  if (!stripper) return probe.hasPrivateMetadata ? compressed : { ...asInput, data: input, kind: 'original' }
  const stripped = stripper(input)
  if (!stripped || stripped.length >= encoded.data.length) return compressed
  if (stripped.length === input.length) return { ...asInput, data: input, kind: 'original' }
  return { ...asInput, data: stripped, kind: 'optimised' }
}

export interface AutoOutcome {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
  /** False when no candidate reached the level: the encode is then the closest found. */
  readonly reachedLevel: boolean
  readonly similarity?: { readonly score: number }
}

/**
 * format=auto's answer. When the input's format is a candidate, the never-larger rule applies
 * to the winner: a winner not smaller than the input gives way to the input (or its lossless
 * optimisation). When no candidate reached the level, the answer is the closest candidate no
 * larger than the input, else the input when its format is a candidate, else TARGET_UNREACHABLE.
 */
export function chooseAutoResult(
  input: Uint8Array,
  probe: ImageProbe,
  outcome: AutoOutcome,
  candidates: ReadonlySet<OutputFormat>,
): ChosenResult {
  const { plan, encoded } = outcome
  if (candidates.has(probe.format as OutputFormat)) {
    const chosen = chooseResult(input, probe, { ...plan, format: probe.format as OutputFormat }, encoded)
    if (chosen.kind !== 'compressed') return chosen
  }
  if (outcome.reachedLevel || encoded.data.length <= input.length) return { ...encoded, kind: 'compressed' }
  const level = plan.goal?.level ?? 'the level'
  throw new AppError(
    'TARGET_UNREACHABLE',
    `expected a format among ${[...candidates].join(', ')} that reaches ${level} no larger than the input (${input.length} bytes), the closest was ${encoded.data.length} bytes at similarity ${(outcome.similarity?.score ?? 0).toFixed(4)}; ask for a lower level, or name the format`,
    { smallestBytes: encoded.data.length },
  )
}

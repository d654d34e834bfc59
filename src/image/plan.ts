import { AppError } from '../errors/app-error.ts'
import type { CompressOptions, OptionName } from '../options/schema.ts'
import {
  FORMAT_TABLE,
  isPacked,
  resolveFormatName,
  type OutputFormat,
  type RangeTunable,
  type Tunables,
} from '../formats/format-table.ts'
import { canWrite, formatInfo, tunablesFor } from './formats.ts'
import { ignoredOptions } from './ignored-options.ts'
import { icoSizesOf, isRightAngle, operationsFor, resizeFor } from './plan-operations.ts'
import type { ImageProbe } from './probe.ts'
import type { JobPlan, SearchGoal } from './job-plan.ts'

export type { Fit, JobPlan, SearchGoal } from './job-plan.ts'

/**
 * The options planning itself carries out: they choose the format and the search, and no
 * pipeline step reads them. Every other option is carried out by a step (steps/index.ts).
 */
export const PLANNED_OPTIONS = [
  // Read before planning: it says where the input comes from (the HTTP edge fetches it).
  'url',
  // Turns one request into several outputs, each planned on its own (variants.ts).
  'variants',
  // Read after the job, by the HTTP edge: where its outputs are written (src/store/).
  'store',
  'storeOverwrite',
  'storeSignedUrlExpires',
  'format',
  'formats',
  'maxBytes',
  'minQuality',
  'allowResize',
] as const satisfies readonly OptionName[]

export interface PlanLimits {
  readonly maxOutputDimension: number
}

function outputFormatFor(options: CompressOptions, probe: ImageProbe): OutputFormat {
  // format=auto is resolved by the caller into candidates, each planned with its own format.
  if (options.format === 'auto') throw new Error('planJob needs one format: resolve format=auto first')
  if (options.format !== 'original') {
    const id = resolveFormatName(options.format)!
    if (!canWrite(id)) {
      throw new AppError('INVALID_PARAMETER', `format: ${id} cannot be written by this server's build`, {
        errors: [
          { name: 'format', reason: `${id} output is not available in this build; see GET /api/formats` },
        ],
      })
    }
    return id
  }
  if (canWrite(probe.format)) return probe.format
  return probe.hasAlpha ? 'png' : 'jpeg'
}

function checkRange(
  name: OptionName,
  value: number | undefined,
  range: RangeTunable | undefined,
  format: string,
) {
  if (value === undefined || !range) return
  if (value < range.min || value > range.max) {
    const reason = `expected an integer from ${range.min} to ${range.max} for ${format} output, received ${value}`
    throw new AppError('INVALID_PARAMETER', `${name}: ${reason}`, { errors: [{ name, reason }] })
  }
}

function checkDimension(name: 'width' | 'height', value: number | undefined, max: number) {
  if (value !== undefined && value > max) {
    const reason = `expected at most ${max} pixels (the server's output limit), received ${value}`
    throw new AppError('INVALID_PARAMETER', `${name}: ${reason}`, { errors: [{ name, reason }] })
  }
}

/** TIFF's JPEG compression has no alpha channel, so transparent images are stored with deflate. */
function losslessFor(options: CompressOptions, format: OutputFormat, tunables: Tunables, probe: ImageProbe) {
  if (!tunables.lossless) return false
  return options.lossless || (format === 'tiff' && probe.hasAlpha)
}

/** PNG's effort tunes the palette quantiser (libimagequant), which lossless PNG does not run. */
function effortFor(options: CompressOptions, format: OutputFormat, tunables: Tunables, lossless: boolean) {
  if (!tunables.effort || (format === 'png' && lossless)) return undefined
  return options.effort ?? tunables.effort.default
}

/**
 * The search the caller asked for. A similarity level needs a quality to search (not lossless,
 * not GIF); a byte target applies to every format, a palette shrinking by its colours.
 */
function goalFor(
  options: CompressOptions,
  quality: number | undefined,
  tunables: Tunables,
): SearchGoal | undefined {
  const level = typeof options.quality === 'string' && quality !== undefined ? options.quality : undefined
  const maxBytes = options.maxBytes
  if (level === undefined && maxBytes === undefined) return undefined
  const ceiling = typeof options.quality === 'number' ? options.quality : undefined
  const floor = maxBytes ? (options.minQuality ?? tunables.minQuality?.default) : undefined
  return {
    ...(level ? { level } : {}),
    ...(maxBytes ? { maxBytes } : {}),
    ...(ceiling ? { ceiling } : {}),
    ...(floor ? { floor: Math.min(floor, ceiling ?? 100) } : {}),
    allowResize: options.allowResize,
  }
}

/** The same job written without loss: PNG's answer when no palette fits a budget or a level. */
export function losslessOf(plan: JobPlan): JobPlan {
  return {
    ...plan,
    lossless: true,
    quality: undefined,
    effort: undefined,
    colours: undefined,
    dither: undefined,
  }
}

/** Turns validated options plus what the probe learnt into a concrete job. */
/** `overlay`: the watermark's header, when the request sent one. */
export function planJob(
  options: CompressOptions,
  probe: ImageProbe,
  limits: PlanLimits,
  overlay?: ImageProbe,
): JobPlan {
  const format = outputFormatFor(options, probe)
  const tunables = tunablesFor(format)
  const lossless = losslessFor(options, format, tunables, probe)
  const numericQuality = typeof options.quality === 'number' ? options.quality : undefined
  checkRange('quality', numericQuality, tunables.quality, format)
  checkRange('effort', options.effort, tunables.effort, format)
  checkRange('minQuality', options.minQuality, tunables.minQuality, format)
  checkDimension('width', options.width, limits.maxOutputDimension)
  checkDimension('height', options.height, limits.maxOutputDimension)
  const animated = probe.frames > 1 && formatInfo(format).animated
  const resize = resizeFor(options, animated)
  const flatten = probe.hasAlpha && !FORMAT_TABLE[format].alpha
  const letterbox = resize?.fit === 'contain' && resize.width !== undefined && resize.height !== undefined
  const operations = operationsFor(options, probe, overlay !== undefined)
  // Corners a turn uncovers are transparent where the output keeps alpha, else the background.
  const turnFill =
    operations.rotate !== undefined && !isRightAngle(operations.rotate) && !FORMAT_TABLE[format].alpha
  const plan = {
    format,
    quality: lossless || !tunables.quality ? undefined : (numericQuality ?? tunables.quality.default),
    lossless,
    effort: effortFor(options, format, tunables, lossless),
    progressive: tunables.progressive ? (options.progressive ?? tunables.progressive.default) : false,
    chromaSubsampling:
      tunables.chromaSubsampling && !lossless
        ? ((options.chromaSubsampling ?? tunables.chromaSubsampling.default) as '4:2:0' | '4:4:4')
        : undefined,
    smartSubsample:
      tunables.smartSubsample && !lossless
        ? (options.smartSubsample ?? tunables.smartSubsample.default)
        : false,
    background: options.background.startsWith('#') ? options.background : `#${options.background}`,
    flatten,
    paintsBackground:
      flatten ||
      letterbox ||
      turnFill ||
      operations.pad !== undefined ||
      (operations.radius !== undefined && !FORMAT_TABLE[format].alpha),
    ...operations,
    ...(format === 'ico' ? { icoSizes: icoSizesOf(options.icoSizes) } : {}),
    resize,
    metadata: options.metadata,
    animated,
  }
  // A packed container (ICO) has no quality to search: maxBytes and the levels do not apply.
  const goal = isPacked(format) ? undefined : goalFor(options, plan.quality, tunables)
  const planned = { ...plan, ...(goal ? { goal } : {}) }
  return { ...planned, ignored: ignoredOptions(options, planned) }
}

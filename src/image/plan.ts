import { AppError } from '../errors/app-error.ts'
import type { CompressOptions, OptionName } from '../options/schema.ts'
import {
  FORMAT_TABLE,
  resolveFormatName,
  type OutputFormat,
  type RangeTunable,
  type Tunables,
} from './format-table.ts'
import { canWrite, formatInfo } from './formats.ts'
import type { ImageProbe } from './probe.ts'

export type Fit = CompressOptions['fit']

/** Everything the pipeline needs, resolved: no defaults left to guess, no HTTP. */
export interface JobPlan {
  readonly format: OutputFormat
  readonly quality?: number
  readonly lossless: boolean
  readonly effort?: number
  readonly progressive: boolean
  readonly chromaSubsampling?: '4:2:0' | '4:4:4'
  readonly background: string
  readonly resize?: {
    readonly width?: number
    readonly height?: number
    readonly fit: Fit
    readonly withoutEnlargement: boolean
  }
  readonly metadata: 'strip' | 'keep'
  /** Keep every frame (input animated and output can animate). */
  readonly animated: boolean
  /** Options the caller gave that do not apply to this output. */
  readonly ignored: readonly OptionName[]
}

export interface PlanLimits {
  readonly maxOutputDimension: number
}

function outputFormatFor(options: CompressOptions, probe: ImageProbe): OutputFormat {
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

/** Lists the options given that this output cannot use, so the response can say so. */
function ignoredOptions(
  options: CompressOptions,
  format: OutputFormat,
  tunables: Tunables,
  lossless: boolean,
): OptionName[] {
  const ignored: OptionName[] = []
  if (options.quality !== undefined && (!tunables.quality || lossless)) ignored.push('quality')
  if (options.effort !== undefined && !tunables.effort) ignored.push('effort')
  if (options.lossless && !tunables.lossless) ignored.push('lossless')
  if (options.progressive === true && !tunables.progressive) ignored.push('progressive')
  if (options.chromaSubsampling !== undefined && (!tunables.chromaSubsampling || lossless))
    ignored.push('chromaSubsampling')
  if (options.metadata === 'keep' && !FORMAT_TABLE[format].metadata) ignored.push('metadata')
  return ignored
}

/** Turns validated options plus what the probe learnt into a concrete job. */
export function planJob(options: CompressOptions, probe: ImageProbe, limits: PlanLimits): JobPlan {
  const format = outputFormatFor(options, probe)
  const tunables = formatInfo(format).tunables
  const lossless = options.lossless && tunables.lossless !== undefined
  checkRange('quality', options.quality, tunables.quality, format)
  checkRange('effort', options.effort, tunables.effort, format)
  checkDimension('width', options.width, limits.maxOutputDimension)
  checkDimension('height', options.height, limits.maxOutputDimension)
  const ignored = ignoredOptions(options, format, tunables, lossless)
  const resize =
    options.width !== undefined || options.height !== undefined
      ? {
          width: options.width,
          height: options.height,
          fit: options.fit,
          withoutEnlargement: options.withoutEnlargement,
        }
      : undefined
  return {
    format,
    quality: lossless || !tunables.quality ? undefined : (options.quality ?? tunables.quality.default),
    lossless,
    effort: tunables.effort ? (options.effort ?? tunables.effort.default) : undefined,
    progressive: tunables.progressive ? (options.progressive ?? tunables.progressive.default) : false,
    chromaSubsampling:
      tunables.chromaSubsampling && !lossless
        ? ((options.chromaSubsampling ?? tunables.chromaSubsampling.default) as '4:2:0' | '4:4:4')
        : undefined,
    background: options.background.startsWith('#') ? options.background : `#${options.background}`,
    resize,
    metadata: options.metadata,
    animated: probe.frames > 1 && formatInfo(format).animated,
    ignored,
  }
}

import { OPTION_NAMES, optionSchema, type CompressOptions, type OptionName } from '../options/schema.ts'
import { FORMAT_TABLE } from '../formats/format-table.ts'
import type { JobPlan } from './job-plan.ts'

/*
 * Which options the caller asked for that the resolved job does not use, so the response can
 * list them (X-Ignored-Options) instead of dropping them silently. Asking means giving any
 * quality, effort or chromaSubsampling, or a value that changes something: lossless or
 * progressive or smartSubsample true, metadata=keep, a background, fit or withoutEnlargement other than the
 * default. `false` for a format that has no such feature asks for nothing, so it is not listed.
 */

const defaultOf = (name: OptionName): unknown => optionSchema(name).default

/** `#FFF`, `fff` and `#ffffff` are one colour. */
function normaliseHex(colour: string): string {
  const hex = colour.replace(/^#/, '').toLowerCase()
  return hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
}

export function ignoredOptions(options: CompressOptions, plan: Omit<JobPlan, 'ignored'>): OptionName[] {
  const unused: Record<OptionName, boolean> = {
    // Where the image came from: used before any plan, by the HTTP edge.
    url: false,
    // Read by the HTTP edge too: each entry becomes a part of the job, planned on its own.
    variants: false,
    // Where the outputs are written, by the HTTP edge; its companions do nothing without it.
    store: false,
    storeOverwrite: options.storeOverwrite && options.store === undefined,
    storeSignedUrlExpires: options.storeSignedUrlExpires !== undefined && options.store === undefined,
    format: false,
    formats: options.formats !== undefined && options.format !== 'auto',
    // A packed output (ICO) has no byte target: it is not searched.
    maxBytes: options.maxBytes !== undefined && plan.goal?.maxBytes === undefined,
    allowResize: options.allowResize && plan.goal?.maxBytes === undefined,
    minQuality: options.minQuality !== undefined && (plan.goal?.maxBytes === undefined || plan.lossless),
    quality: options.quality !== undefined && plan.quality === undefined,
    lossless: options.lossless && !plan.lossless,
    progressive: options.progressive === true && !plan.progressive,
    smartSubsample: options.smartSubsample === true && !plan.smartSubsample,
    effort: options.effort !== undefined && plan.effort === undefined,
    chromaSubsampling: options.chromaSubsampling !== undefined && plan.chromaSubsampling === undefined,
    background:
      normaliseHex(options.background) !== normaliseHex(String(defaultOf('background'))) &&
      !plan.paintsBackground,
    crop: false,
    trim: false,
    rotate: false,
    flip: false,
    flop: false,
    pad: false,
    icoSizes: options.icoSizes !== defaultOf('icoSizes') && plan.format !== 'ico',
    radius: false,
    // The watermark's options do nothing without a watermark.
    overlayPosition: options.overlayPosition !== defaultOf('overlayPosition') && !plan.overlay,
    overlayOpacity: options.overlayOpacity !== defaultOf('overlayOpacity') && !plan.overlay,
    overlayWidth: options.overlayWidth !== undefined && !plan.overlay,
    overlayMargin: options.overlayMargin !== defaultOf('overlayMargin') && !plan.overlay,
    overlayTile: options.overlayTile && !plan.overlay,
    brightness: false,
    saturation: false,
    hue: false,
    contrast: false,
    sharpen: false,
    blur: false,
    greyscale: false,
    normalise: false,
    width: false,
    height: false,
    fit: options.fit !== defaultOf('fit') && plan.resize?.fit !== options.fit,
    position: options.position !== defaultOf('position') && plan.resize?.position !== options.position,
    dpr: options.dpr !== defaultOf('dpr') && !plan.resize,
    withoutEnlargement: options.withoutEnlargement !== defaultOf('withoutEnlargement') && !plan.resize,
    metadata: options.metadata !== 'strip' && !FORMAT_TABLE[plan.format].metadata,
  }
  return OPTION_NAMES.filter((name) => unused[name])
}

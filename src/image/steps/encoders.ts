import { animationOf } from '../apng.ts'
import type { OutputFormat } from '../../formats/format-table.ts'
import type { JobPlan } from '../job-plan.ts'
import type { JpegOptions } from '../sharp.ts'
import type { StepContext } from './context.ts'

type Encoder = (context: Pick<StepContext, 'image' | 'plan' | 'probe'>) => void

/**
 * Effort 0 is libjpeg-turbo's plain encode with Huffman optimisation; effort 1 adds mozjpeg's
 * trellis quantisation and deringing, and scan optimisation when progressive (sharp's `mozjpeg`
 * preset is not used: it also switches progressive on, which made baseline output impossible).
 * Both keep the standard quantisation tables, which scored best per byte on luma SSIM.
 */
export function jpegOptions(
  plan: Pick<JobPlan, 'quality' | 'progressive' | 'chromaSubsampling' | 'effort' | 'scoredOnly'>,
): JpegOptions {
  const trellis = (plan.effort ?? 0) >= 1
  return {
    quality: plan.quality,
    progressive: plan.progressive,
    chromaSubsampling: plan.chromaSubsampling,
    trellisQuantisation: trellis,
    overshootDeringing: trellis,
    optimiseScans: trellis && plan.progressive,
    optimiseCoding: !plan.scoredOnly,
    quantisationTable: 0,
  }
}

/** A byte-target search's palette settings, when it set any; libimagequant's defaults otherwise. */
function palette(plan: Pick<JobPlan, 'colours' | 'dither'>) {
  return {
    ...(plan.colours !== undefined ? { colours: plan.colours } : {}),
    ...(plan.dither !== undefined ? { dither: plan.dither } : {}),
  }
}

/** One encoder per output format; `satisfies` makes a missing format a compile error. */
export const ENCODERS = {
  jpeg: ({ image, plan }) => {
    image.jpeg(jpegOptions(plan))
  },
  png: ({ image, plan }) => {
    image.png({
      palette: !plan.lossless,
      quality: plan.quality,
      effort: plan.effort,
      progressive: plan.progressive,
      compressionLevel: plan.scoredOnly ? 0 : 9,
      adaptiveFiltering: plan.lossless,
      ...palette(plan),
    })
  },
  webp: ({ image, plan }) => {
    image.webp({
      quality: plan.quality,
      lossless: plan.lossless,
      effort: plan.effort,
      smartSubsample: plan.smartSubsample,
      ...animationOf(image),
    })
  },
  avif: ({ image, plan }) => {
    image.avif({
      quality: plan.quality,
      lossless: plan.lossless,
      effort: plan.effort,
      chromaSubsampling: plan.chromaSubsampling,
    })
  },
  gif: ({ image, plan }) => {
    image.gif({ effort: plan.effort, progressive: plan.progressive, ...palette(plan), ...animationOf(image) })
  },
  tiff: ({ image, plan }) => {
    if (plan.lossless) image.tiff({ compression: 'deflate', predictor: 'horizontal' })
    else image.tiff({ compression: 'jpeg', quality: plan.quality })
  },
  // The source of the ICO's frames (steps/pack.ts): the transformed image, without loss.
  ico: ({ image }) => {
    image.png({ compressionLevel: 6, adaptiveFiltering: false, palette: false })
  },
} satisfies Record<OutputFormat, Encoder>

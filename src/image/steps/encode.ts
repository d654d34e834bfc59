import { ENCODERS } from './encoders.ts'
import type { PipelineStep } from './context.ts'

export const encode: PipelineStep = {
  name: 'encode',
  // icoSizes: read by the ICO packer, which finishes this step's work (pack.ts).
  options: [
    'quality',
    'lossless',
    'progressive',
    'effort',
    'smartSubsample',
    'chromaSubsampling',
    'icoSizes',
  ],
  applies: () => true,
  changesPixels: false,
  stages: () => ['output', 'output'],
  apply: (context) => {
    const { plan, image } = context
    // Grey pixels in one channel (sharp would write three), unless a colour was painted after.
    if (plan.adjust?.greyscale && !plan.paintsBackground) image.toColourspace('b-w')
    ENCODERS[plan.format](context)
  },
}

import { ENCODERS } from './encoders.ts'
import type { PipelineStep } from './context.ts'

export const encode: PipelineStep = {
  name: 'encode',
  options: ['quality', 'lossless', 'progressive', 'effort', 'smartSubsample', 'chromaSubsampling'],
  applies: () => true,
  changesPixels: false,
  stages: () => ['output', 'output'],
  apply: (context) => {
    ENCODERS[context.plan.format](context)
  },
}

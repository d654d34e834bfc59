import { ENCODERS } from './encoders.ts'
import type { PipelineStep } from './context.ts'

export const encode: PipelineStep = (context) => {
  ENCODERS[context.plan.format](context)
}

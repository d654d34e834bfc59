import { outputKeepsAlpha } from '../encoders.ts'
import type { PipelineStep } from './context.ts'

/** Composites transparency onto the background when the output cannot carry an alpha channel. */
export const flatten: PipelineStep = ({ image, probe, plan }) => {
  if (probe.hasAlpha && !outputKeepsAlpha(plan)) image.flatten({ background: plan.background })
}

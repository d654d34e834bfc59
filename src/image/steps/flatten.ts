import type { PipelineStep } from './context.ts'

/** Composites transparency onto the background when the output cannot carry an alpha channel. */
export const flatten: PipelineStep = ({ image, plan }) => {
  if (plan.flatten) image.flatten({ background: plan.background })
}

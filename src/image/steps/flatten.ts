import type { PipelineStep } from './context.ts'

/** Composites transparency onto the background when the output cannot carry an alpha channel. */
export const flatten: PipelineStep = {
  name: 'flatten',
  options: ['background'],
  applies: ({ plan }) => plan.flatten,
  // Only for an output format other than the input's, which the never-larger rule never returns.
  changesPixels: false,
  stages: () => ['flatten', 'flatten'],
  apply: ({ image, plan }) => {
    image.flatten({ background: plan.background })
  },
}

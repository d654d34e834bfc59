import type { PipelineStep } from './context.ts'

/** Shades of grey only: the first adjustment, so the others work on grey. */
export const greyscale: PipelineStep = {
  name: 'greyscale',
  options: ['greyscale'],
  applies: ({ plan }) => plan.adjust?.greyscale === true,
  changesPixels: true,
  stages: () => ['greyscale', 'greyscale'],
  apply: ({ image }) => {
    image.greyscale()
  },
}

import type { PipelineStep } from './context.ts'

/** Keeps a region of the upright input; on an animation, the same region of every frame. */
export const crop: PipelineStep = {
  name: 'crop',
  options: ['crop'],
  applies: ({ plan }) => plan.crop !== undefined,
  changesPixels: true,
  stages: () => ['extractBefore', 'extractBefore'],
  apply: ({ image, plan }) => {
    image.extract(plan.crop!)
  },
}

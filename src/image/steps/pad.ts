import type { PipelineStep } from './context.ts'

/** Adds pixels of the background colour on each side; on an animation, around every frame. */
export const pad: PipelineStep = {
  name: 'pad',
  options: ['pad', 'background'],
  applies: ({ plan }) => plan.pad !== undefined,
  changesPixels: true,
  stages: () => ['extend', 'extend'],
  apply: ({ image, plan }) => {
    image.extend({ ...plan.pad!, background: plan.background })
  },
}

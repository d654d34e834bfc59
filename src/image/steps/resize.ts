import type { PipelineStep } from './context.ts'

export const resize: PipelineStep = {
  name: 'resize',
  options: ['width', 'height', 'fit', 'withoutEnlargement'],
  applies: ({ plan }) => plan.resize !== undefined,
  // A resize to the input's own size changes nothing: the never-larger rule compares sizes.
  changesPixels: false,
  stages: () => ['resize', 'crop'],
  apply: ({ image, plan }) => {
    const { width, height, fit, withoutEnlargement } = plan.resize!
    image.resize({ width, height, fit, withoutEnlargement, background: plan.background })
  },
}

import type { PipelineStep } from './context.ts'
import { SHARP_GRAVITY } from './gravity.ts'

export const resize: PipelineStep = {
  name: 'resize',
  options: ['width', 'height', 'fit', 'position', 'dpr', 'withoutEnlargement'],
  applies: ({ plan }) => plan.resize !== undefined,
  // A resize to the input's own size changes nothing: the never-larger rule compares sizes.
  changesPixels: false,
  stages: () => ['resize', 'crop'],
  apply: ({ image, plan }) => {
    const { width, height, fit, withoutEnlargement, position = 'centre' } = plan.resize!
    // attention and entropy are sharp's own names for its smart crop.
    const sharpPosition =
      position === 'attention' || position === 'entropy' ? position : SHARP_GRAVITY[position]
    image.resize({
      width,
      height,
      fit,
      withoutEnlargement,
      background: plan.background,
      position: sharpPosition,
    })
  },
}

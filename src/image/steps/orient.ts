import type { PipelineStep } from './context.ts'

/** Applies EXIF orientation to the pixels, so viewers that ignore EXIF show it upright too. */
export const orient: PipelineStep = {
  name: 'orient',
  options: [],
  applies: ({ probe }) => probe.orientation !== 1,
  // Already in the input's declared size (probe.ts), so the never-larger rule checks it there.
  changesPixels: false,
  stages: () => ['autoOrientAfter', 'autoOrientAfter'],
  apply: ({ image }) => {
    image.autoOrient()
  },
}

import type { PipelineStep } from './context.ts'

/** Applies EXIF orientation to the pixels, so viewers that ignore EXIF show it upright too. */
export const orient: PipelineStep = ({ image }) => {
  image.autoOrient()
}

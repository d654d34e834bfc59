import type { PipelineStep } from './context.ts'

/**
 * libvips paints a background in the image's own colour space, so on a greyscale input a red
 * letterbox came out grey and a red flattening colour white. Working in sRGB keeps the colour;
 * the output is sRGB either way. Only then, because sRGB processing shifts other inputs' pixels.
 */
export const workingSpace: PipelineStep = {
  name: 'workingSpace',
  options: [],
  applies: ({ probe, plan }) => probe.isGreyscale && plan.paintsBackground,
  changesPixels: false,
  stages: () => ['input', 'input'],
  apply: ({ image }) => {
    image.pipelineColourspace('srgb')
  },
}

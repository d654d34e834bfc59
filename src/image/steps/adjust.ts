import type { Adjustments } from '../job-plan.ts'
import type { Sharp } from '../sharp.ts'
import type { PipelineStep, StepFacts } from './context.ts'
import { eachFrame } from './frames.ts'
import type { SharpStage } from './sharp-order.ts'

/*
 * The adjustments, in sharp's own order, which is the documented one: blur, then brightness,
 * saturation and hue, then sharpen, then contrast, then normalise (greyscale is its own step,
 * before them: see greyscale.ts).
 */

/**
 * Contrast from -100 to 100 as a slope around mid-grey: the curve photo editors use,
 * (259 (c + 255)) / (255 (259 - c)) with c on 0-255, so -100 is flat grey, 0 is the identity and
 * 100 nearly black and white. Alpha keeps its value: sharp leaves it out of `linear`.
 */
export function contrastSlope(contrast: number): number {
  const c = contrast * 2.55
  return (259 * (c + 255)) / (255 * (259 - c))
}

function stagesOf(adjust: Adjustments): SharpStage[] {
  const stages: SharpStage[] = []
  if (adjust.blur) stages.push('blur')
  if (adjust.brightness !== undefined || adjust.saturation !== undefined || adjust.hue !== undefined)
    stages.push('modulate')
  if (adjust.sharpen) stages.push('sharpen')
  if (adjust.contrast !== undefined) stages.push('linear')
  if (adjust.normalise) stages.push('normalise')
  return stages
}

/** Everything but normalise, which must see the whole animation to treat its frames alike. */
function adjustFrame(image: Sharp, adjust: Adjustments, highDepth: boolean): Sharp {
  if (adjust.blur) image.blur(adjust.blur)
  const { brightness = 1, saturation = 1, hue = 0 } = adjust
  if (brightness !== 1 || saturation !== 1 || hue !== 0) image.modulate({ brightness, saturation, hue })
  if (adjust.sharpen) image.sharpen({ sigma: adjust.sharpen })
  if (adjust.contrast !== undefined) {
    const slope = contrastSlope(adjust.contrast)
    const middle = highDepth ? 32768 : 128
    image.linear(slope, middle * (1 - slope))
  }
  return image
}

const stages = ({ plan }: StepFacts): readonly [SharpStage, SharpStage] => {
  const used = stagesOf(plan.adjust!)
  return [used[0]!, used.at(-1)!]
}

export const adjust: PipelineStep = {
  name: 'adjust',
  options: ['brightness', 'saturation', 'hue', 'contrast', 'sharpen', 'blur', 'normalise'],
  applies: ({ plan }) => plan.adjust !== undefined && stagesOf(plan.adjust).length > 0,
  changesPixels: true,
  stages,
  apply: async (context) => {
    const { plan, probe } = context
    const values = plan.adjust!
    // A blur or a sharpen of the stacked frames would bleed one frame into the next.
    if (plan.animated && (values.blur || values.sharpen))
      await eachFrame(context, (frame) => adjustFrame(frame, values, probe.highDepth))
    else adjustFrame(context.image, values, probe.highDepth)
    if (values.normalise) context.image.normalise()
  },
}

import { FORMAT_TABLE } from '../../formats/format-table.ts'
import { isRightAngle } from '../plan-operations.ts'
import type { Sharp } from '../sharp.ts'
import type { PipelineStep, StepFacts } from './context.ts'
import { eachFrame } from './frames.ts'
import type { SharpStage } from './sharp-order.ts'

/**
 * Mirrors, then turns clockwise. A right angle moves pixels exactly; any other angle fills the
 * uncovered corners with transparency where the output keeps it, else with the background.
 */
function turn(image: Sharp, { plan }: StepFacts): Sharp {
  if (plan.flip) image.flip()
  if (plan.flop) image.flop()
  if (plan.rotate === undefined) return image
  const background = FORMAT_TABLE[plan.format].alpha ? { r: 0, g: 0, b: 0, alpha: 0 } : plan.background
  return image.rotate(plan.rotate, { background })
}

/** Where sharp turns: before resizing when the same chain resizes, else after the other moves. */
function stages({ plan }: StepFacts): readonly [SharpStage, SharpStage] {
  if (plan.rotate === undefined) return ['flipAfter', 'flipAfter']
  if (plan.resize) return ['rotateBefore', 'rotateBefore']
  return ['flipAfter', isRightAngle(plan.rotate) ? 'rotateRightAngle' : 'rotateAngle']
}

export const rotate: PipelineStep = {
  name: 'rotate',
  options: ['rotate', 'flip', 'flop'],
  applies: ({ plan }) => plan.rotate !== undefined || plan.flip === true || plan.flop === true,
  changesPixels: true,
  stages,
  apply: async (context) => {
    // Frames are stacked in one tall image: turning or flipping it whole would reorder them.
    const whole = !context.plan.animated || (context.plan.rotate === undefined && !context.plan.flip)
    if (whole) turn(context.image, context)
    else await eachFrame(context, (frame) => turn(frame, context))
  },
}

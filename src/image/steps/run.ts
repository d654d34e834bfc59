import type { JobPlan } from '../job-plan.ts'
import type { ImageProbe } from '../probe.ts'
import type { Sharp } from '../sharp.ts'
import type { PipelineStep, StepContext } from './context.ts'
import { renderImage } from './render.ts'
import { reorderable } from './same-either-way.ts'
import { isSetting, stageIndex, type SharpStage } from './sharp-order.ts'

export interface StepInputs {
  readonly input: Uint8Array
  readonly probe: ImageProbe
  readonly plan: JobPlan
  readonly overlay?: Uint8Array
  readonly timeoutSeconds: number
}

interface Configured {
  readonly name: string
  readonly last: SharpStage
}

/**
 * Runs steps in their listed order over one image. Each configures the sharp chain; before a
 * step whose operation sharp would run ahead of one already configured, the chain is rendered
 * and the step starts from those pixels, so the listed order is the order the image sees.
 */
export async function runSteps(
  steps: readonly PipelineStep[],
  image: Sharp,
  inputs: StepInputs,
): Promise<StepContext> {
  let configured: Configured[] = []
  const context: StepContext = {
    ...inputs,
    image,
    render: async () => {
      const rendered = await renderImage(context.image, inputs.plan, inputs.probe, inputs.timeoutSeconds)
      context.image = rendered.image
      configured = []
      return rendered
    },
  }
  for (const step of steps) {
    if (!step.applies(context)) continue
    const [first, last] = step.stages(context)
    const ahead = (done: Configured) =>
      !isSetting(first) &&
      stageIndex(done.last) >= stageIndex(first) &&
      !reorderable(done.name, step.name, context)
    if (configured.some(ahead)) await context.render()
    await step.apply(context)
    if (!isSetting(last)) configured.push({ name: step.name, last })
  }
  return context
}

import type { Region } from '../job-plan.ts'
import { sharp, type Sharp } from '../sharp.ts'
import type { PipelineStep, StepContext } from './context.ts'
import { rawSamples } from './render.ts'

/** Where a trim of one frame would cut: the box of everything not border. */
async function contentBox(frame: Sharp, threshold: number): Promise<Region> {
  const { info } = await frame.trim({ threshold }).raw().toBuffer({ resolveWithObject: true })
  return {
    left: -(info.trimOffsetLeft ?? 0),
    top: -(info.trimOffsetTop ?? 0),
    width: info.width,
    height: info.height,
  }
}

/**
 * An animation loses the border every frame has: the union of the frames' content boxes is
 * cut from all of them, so nothing moving is cut off and the frames keep one size.
 */
async function trimFrames(context: StepContext, threshold: number): Promise<void> {
  const rendered = await context.render()
  const { data, depth } = rendered.raw!
  const bytes = data.length / rendered.frames
  const raw = { width: rendered.width, height: rendered.height, channels: rendered.channels as 1 | 2 | 3 | 4 }
  let union: { left: number; top: number; right: number; bottom: number } | undefined
  for (let frame = 0; frame < rendered.frames; frame++) {
    const samples = rawSamples(data.subarray(frame * bytes, (frame + 1) * bytes), depth)
    const box = await contentBox(sharp(samples, { raw }), threshold)
    union = {
      left: Math.min(union?.left ?? box.left, box.left),
      top: Math.min(union?.top ?? box.top, box.top),
      right: Math.max(union?.right ?? 0, box.left + box.width),
      bottom: Math.max(union?.bottom ?? 0, box.top + box.height),
    }
  }
  const { left, top, right, bottom } = union!
  context.image.extract({ left, top, width: right - left, height: bottom - top })
}

/** Removes a border of one colour (the top-left pixel's), within the plan's threshold. */
export const trim: PipelineStep = {
  name: 'trim',
  options: ['trim'],
  applies: ({ plan }) => plan.trim !== undefined,
  changesPixels: true,
  stages: () => ['trim', 'extractBefore'],
  apply: async (context) => {
    const threshold = context.plan.trim!
    // sharp cannot trim a stack of frames; each frame is measured alone instead.
    if (context.plan.animated) await trimFrames(context, threshold)
    else context.image.trim({ threshold })
  },
}

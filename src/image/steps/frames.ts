import { animationOf, rememberAnimation } from '../apng.ts'
import { sharp, type Sharp } from '../sharp.ts'
import type { StepContext } from './context.ts'
import { rawSamples } from './render.ts'

type Channels = 1 | 2 | 3 | 4

/*
 * sharp holds an animation as one tall image of stacked frames. Operations that treat it as a
 * whole go wrong on that: a turn or a vertical flip would reverse the order of the frames (or
 * throw), a blur would bleed from one frame into the next. Such a step applies its operation to
 * each frame alone, and the frames are stacked again with their timing.
 */
export async function eachFrame(context: StepContext, operation: (frame: Sharp) => Sharp): Promise<void> {
  const animation = animationOf(context.image)
  const rendered = await context.render()
  const { data, depth } = rendered.raw!
  const bytes = data.length / rendered.frames
  const done: Uint8Array[] = []
  let size = { width: rendered.width, height: rendered.height, channels: rendered.channels }
  for (let frame = 0; frame < rendered.frames; frame++) {
    const input = sharp(rawSamples(data.subarray(frame * bytes, (frame + 1) * bytes), depth), {
      raw: { width: rendered.width, height: rendered.height, channels: rendered.channels as Channels },
    }).timeout({ seconds: context.timeoutSeconds })
    const { data: out, info } = await operation(input).raw({ depth }).toBuffer({ resolveWithObject: true })
    done.push(out)
    size = { width: info.width, height: info.height, channels: info.channels }
  }
  const image = sharp(rawSamples(Buffer.concat(done), depth), {
    raw: {
      width: size.width,
      height: size.height * rendered.frames,
      channels: size.channels as Channels,
      pageHeight: size.height,
    },
    animated: true,
  }).timeout({ seconds: context.timeoutSeconds })
  context.image = animation ? rememberAnimation(image, animation) : image
}

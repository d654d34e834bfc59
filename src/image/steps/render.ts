import { animationOf, rememberAnimation, type Animation } from '../apng.ts'
import type { JobPlan } from '../job-plan.ts'
import type { ImageProbe } from '../probe.ts'
import { sharp, type Sharp } from '../sharp.ts'
import type { Rendered } from './context.ts'

/*
 * Renders a chain and starts a new one from its pixels. Raw samples are the cheapest carrier,
 * but they carry no metadata: when the job keeps an ICC profile, EXIF or XMP from the input,
 * a still image goes through an uncompressed PNG instead, which holds all three.
 */

/** The job keeps something from the input's metadata that raw samples would lose. */
function keepsInputMetadata(plan: JobPlan, probe: ImageProbe): boolean {
  if (plan.metadata === 'keep') return probe.hasIcc || probe.hasPrivateMetadata
  return plan.metadata !== 'strip' && probe.hasIcc
}

async function timingOf(image: Sharp): Promise<Animation | undefined> {
  const own = animationOf(image)
  if (own) return own
  const { delay, loop } = await image.metadata()
  return delay ? { delay, loop: loop ?? 0 } : undefined
}

export type Depth = 'uchar' | 'ushort'

/** Raw samples as sharp reads them: it takes the depth from the typed array it is given. */
export function rawSamples(data: Uint8Array, depth: Depth): Uint8Array | Uint16Array {
  if (depth === 'uchar') return data
  const aligned = data.byteOffset % 2 === 0 ? data : data.slice()
  return new Uint16Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 2)
}

export interface RenderedImage extends Rendered {
  readonly image: Sharp
}

export async function renderImage(
  image: Sharp,
  plan: JobPlan,
  probe: ImageProbe,
  timeoutSeconds: number,
): Promise<RenderedImage> {
  if (!plan.animated && keepsInputMetadata(plan, probe)) {
    const { data, info } = await image
      .keepMetadata()
      .png({ compressionLevel: 0, adaptiveFiltering: false, palette: false })
      .toBuffer({ resolveWithObject: true })
    const next = sharp(data).timeout({ seconds: timeoutSeconds })
    return { image: next, width: info.width, height: info.height, frames: 1, channels: info.channels }
  }
  const animation = plan.animated ? await timingOf(image) : undefined
  const depth: Depth = probe.highDepth ? 'ushort' : 'uchar'
  // Grey samples (after greyscale) would make a later step paint its background in grey.
  if (plan.paintsBackground) image.toColourspace('srgb')
  const { data, info } = await image.raw({ depth }).toBuffer({ resolveWithObject: true })
  const frames = plan.animated ? (info.pages ?? 1) : 1
  const height = frames > 1 ? (info.pageHeight ?? info.height / frames) : info.height
  const next = sharp(rawSamples(data, depth), {
    raw: {
      width: info.width,
      height: height * frames,
      channels: info.channels,
      ...(frames > 1 ? { pageHeight: height } : {}),
    },
    animated: frames > 1,
  }).timeout({ seconds: timeoutSeconds })
  if (animation) rememberAnimation(next, animation)
  return { image: next, width: info.width, height, frames, channels: info.channels, raw: { data, depth } }
}

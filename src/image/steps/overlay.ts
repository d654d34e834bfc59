import type { OverlayPlan } from '../job-plan.ts'
import { assertOverlayRoom } from '../overlay-room.ts'
import { sharp } from '../sharp.ts'
import type { PipelineStep, Rendered, StepContext } from './context.ts'
import { SHARP_GRAVITY } from './gravity.ts'

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 }

interface Layer {
  readonly input: Buffer
  readonly raw: { readonly width: number; readonly height: number; readonly channels: 4 }
}

/**
 * The watermark ready to lay: its first frame, at its share of the frame's width (or its own
 * size), never larger than the frame within the margins; its alpha multiplied by the opacity
 * (sharp's composite ignores an `opacity`), and the margin added around it as transparency.
 */
async function watermark(
  bytes: Uint8Array,
  o: OverlayPlan,
  frame: Rendered,
  timeoutSeconds: number,
): Promise<Layer> {
  const room = {
    width: Math.max(1, frame.width - 2 * o.margin),
    height: Math.max(1, frame.height - 2 * o.margin),
  }
  const wanted = o.width === undefined ? undefined : Math.max(1, Math.round(frame.width * o.width))
  const sized = await sharp(bytes, { pages: 1 })
    .timeout({ seconds: timeoutSeconds })
    .resize({
      width: Math.min(wanted ?? room.width, room.width),
      height: room.height,
      fit: 'inside',
      withoutEnlargement: wanted === undefined,
    })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // A second pass: sharp runs `linear` before `ensureAlpha` in one pipeline, and a four-value
  // linear on a logo without alpha (a JPEG, an RGB or grey PNG) failed there.
  const { data, info } = await sharp(sized.data, {
    raw: { width: sized.info.width, height: sized.info.height, channels: 4 },
  })
    .timeout({ seconds: timeoutSeconds })
    .linear([1, 1, 1, o.opacity], [0, 0, 0, 0])
    .extend({ top: o.margin, bottom: o.margin, left: o.margin, right: o.margin, background: TRANSPARENT })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { input: data, raw: { width: info.width, height: info.height, channels: 4 } }
}

/** An animation gets the watermark on every frame: laid once on a frame-sized layer, then stacked. */
async function onEveryFrame(context: StepContext, layer: Layer, o: OverlayPlan, frame: Rendered) {
  const { data } = await sharp({
    create: { width: frame.width, height: frame.height, channels: 4, background: TRANSPARENT },
  })
    .composite([{ ...layer, gravity: SHARP_GRAVITY[o.position], tile: o.tile }])
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { width: frame.width, height: frame.height, channels: 4 as const }
  context.image.composite(
    Array.from({ length: frame.frames }, (_, i) => ({ input: data, raw, top: i * frame.height, left: 0 })),
  )
}

/** Lays the watermark sent beside the image at its position, or tiled over the whole image. */
export const overlay: PipelineStep = {
  name: 'overlay',
  options: ['overlayPosition', 'overlayOpacity', 'overlayWidth', 'overlayMargin', 'overlayTile'],
  applies: ({ plan }) => plan.overlay !== undefined,
  changesPixels: true,
  stages: () => ['composite', 'composite'],
  apply: async (context) => {
    const o = context.plan.overlay!
    // Its size depends on the image's as the steps before left it.
    const frame = await context.render()
    assertOverlayRoom(o, frame.width, frame.height)
    const layer = await watermark(context.overlay!, o, frame, context.timeoutSeconds)
    if (frame.frames > 1) await onEveryFrame(context, layer, o, frame)
    else context.image.composite([{ ...layer, gravity: SHARP_GRAVITY[o.position], tile: o.tile }])
  },
}

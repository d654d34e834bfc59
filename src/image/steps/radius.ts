import { FORMAT_TABLE } from '../../formats/format-table.ts'
import { sharp } from '../sharp.ts'
import type { PipelineStep, Rendered } from './context.ts'

interface Corner {
  readonly input: Buffer
  readonly raw: { readonly width: number; readonly height: number; readonly channels: 4 }
}

/**
 * The four pieces a rounding cuts off: each an r x r square minus its quarter circle, opaque,
 * in `colour`. Drawn by librsvg, so the curve is antialiased.
 */
async function corners(r: number, colour: string): Promise<Corner[]> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${r}" height="${r}"><path d="M0 0H${r}A${r} ${r} 0 0 0 0 ${r}Z" fill="${colour}"/></svg>`
  const topLeft = sharp(Buffer.from(svg)).ensureAlpha()
  const raw = { width: r, height: r, channels: 4 as const }
  const pieces = [
    topLeft.clone(),
    topLeft.clone().flop(),
    topLeft.clone().flip(),
    topLeft.clone().flip().flop(),
  ]
  return Promise.all(pieces.map(async (piece) => ({ input: await piece.raw().toBuffer(), raw })))
}

/**
 * Rounds the corners: they become transparent where the output keeps alpha (the pieces are
 * cut out), else they are painted with the background. Every frame of an animation alike.
 */
export const radius: PipelineStep = {
  name: 'radius',
  options: ['radius'],
  applies: ({ plan }) => plan.radius !== undefined,
  changesPixels: true,
  stages: () => ['composite', 'composite'],
  apply: async (context) => {
    const { plan } = context
    const frame: Rendered = await context.render()
    const r = Math.min(plan.radius!, Math.floor(frame.width / 2), Math.floor(frame.height / 2))
    if (r < 1) return
    const transparent = FORMAT_TABLE[plan.format].alpha
    const [tl, tr, bl, br] = await corners(r, transparent ? '#000' : plan.background)
    const blend = transparent ? ('dest-out' as const) : ('over' as const)
    const right = frame.width - r
    const bottom = frame.height - r
    context.image.composite(
      Array.from({ length: frame.frames }, (_, i) => i * frame.height).flatMap((top) => [
        { ...tl!, left: 0, top, blend },
        { ...tr!, left: right, top, blend },
        { ...bl!, left: 0, top: top + bottom, blend },
        { ...br!, left: right, top: top + bottom, blend },
      ]),
    )
  },
}

import { invalidParameters } from '../errors/app-error.ts'
import type { OverlayPlan } from './job-plan.ts'

/**
 * The watermark is sized to fit the image inside its margins: a margin of half the image or
 * more on a side leaves it no room. Checked from the plan before any pixel is touched (a
 * margin of 10000 on a photo once cost 7-12 s of work for its 422) and again on the frame the
 * watermark lands on, whose size a trim can make smaller than planned.
 */
export function assertOverlayRoom(overlay: OverlayPlan | undefined, width: number, height: number): void {
  if (!overlay) return
  const most = Math.floor((Math.min(width, height) - 1) / 2)
  if (overlay.margin <= most) return
  throw invalidParameters([
    {
      name: 'overlayMargin',
      reason: `expected at most ${most} for an image of ${width}x${height} (the margins on both sides must leave the watermark a pixel), received ${overlay.margin}`,
    },
  ])
}

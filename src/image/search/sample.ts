/*
 * A sample of an image for a search to probe cheaply: a grid of tiles cut from it at full
 * resolution and laid side by side, about a sixth of its area. Encoded at a quality and scored
 * at the scale the whole image is scored at, it follows the whole image's score closely (on the
 * corpus at width 1600, the quality where it crosses a level was within 2 of the whole image's
 * for most images and formats), at a sixth of the cost. The search then confirms on the whole image.
 */
import { searchFormat, type SearchFormat } from '../../formats/format-table.ts'
import type { Pixels } from './pixels.ts'
import type { JobPlan } from '../plan.ts'
import { comparisonSize, prepareRawReference, type PreparedReference } from './similarity.ts'
import { SSIM_WINDOW } from './ssim.ts'
import { shownOn } from './reference.ts'

/** Tiles per side of the grid. */
const GRID = 6
/** The sample's share of the image's area. */
const SHARE = 1 / 6
/**
 * Tile sides are multiples of this: JPEG's 4:2:0 blocks and WebP's macroblocks are 16 pixels,
 * so a tile's blocks are the whole image's blocks, cut on their borders.
 */
const ALIGN = 16
/** Smaller tiles are mostly border: below this the image itself is probed. */
const MIN_TILE = 32

export interface Sample {
  readonly pixels: Pixels
  readonly reference: PreparedReference
}

/** The tile side for an image, or undefined when a sample would not be much cheaper than the image. */
function tileSide(width: number, height: number): number | undefined {
  const side = Math.floor(Math.sqrt(width * height * SHARE) / GRID / ALIGN) * ALIGN
  if (side < MIN_TILE || side > width || side > height) return undefined
  return side
}

/** Where tile `i` of GRID starts along an axis of `length`: centred in its cell, on the block grid. */
function tileStart(i: number, length: number, side: number): number {
  const centred = Math.round(((i + 0.5) * length) / GRID - side / 2)
  return Math.min(length - side, Math.max(0, centred - (centred % ALIGN)))
}

function cutTiles(pixels: Pixels, side: number): Pixels {
  const { width, height, channels, data } = pixels
  const rowBytes = side * channels
  const mosaicWidth = GRID * side
  const out = new Uint8Array(mosaicWidth * mosaicWidth * channels)
  for (let ty = 0; ty < GRID; ty++) {
    const y0 = tileStart(ty, height, side)
    for (let tx = 0; tx < GRID; tx++) {
      const x0 = tileStart(tx, width, side)
      for (let y = 0; y < side; y++) {
        const from = ((y0 + y) * width + x0) * channels
        const to = ((ty * side + y) * mosaicWidth + tx * side) * channels
        out.set(data.subarray(from, from + rowBytes), to)
      }
    }
  }
  const { animation: _, ...still } = pixels
  return { ...still, data: out, width: mosaicWidth, height: mosaicWidth, frames: 1 }
}

/**
 * Formats whose encoders work block by block, so that a tile comes out of the sample as it does
 * out of the whole image. A palette (PNG, GIF) is chosen for the whole image: a sample's few
 * colours fit in one where the whole image's do not (a photo's sample passed at PNG quality 80
 * where the image failed at 100).
 */
const BLOCKWISE: Readonly<Record<SearchFormat, boolean>> = {
  jpeg: true,
  webp: true,
  avif: true,
  tiff: true,
  png: false,
  gif: false,
}

/**
 * The sample of a still image and its reference, scaled by the factor the whole image is scored
 * at; undefined for images too small for a sample to pay, animations and palettes.
 */
export async function sampleOf(pixels: Pixels, plan: JobPlan): Promise<Sample | undefined> {
  if (pixels.frames > 1 || !BLOCKWISE[searchFormat(plan.format)] || plan.lossless) return undefined
  const side = tileSide(pixels.width, pixels.height)
  if (side === undefined) return undefined
  const sample = cutTiles(pixels, side)
  const whole = comparisonSize(pixels.width, pixels.height)
  const size = {
    width: Math.max(SSIM_WINDOW, Math.round((sample.width * whole.width) / pixels.width)),
    height: Math.max(SSIM_WINDOW, Math.round((sample.height * whole.height) / pixels.height)),
  }
  return { pixels: sample, reference: await prepareRawReference(sample, shownOn(plan), size) }
}

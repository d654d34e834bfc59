import { describe, expect, test } from 'bun:test'
import type { Pixels } from '../../../src/image/search/pixels.ts'
import type { JobPlan } from '../../../src/image/plan.ts'
import { sampleOf } from '../../../src/image/search/sample.ts'
import { comparisonSize } from '../../../src/image/search/similarity.ts'

/** Four samples a pixel that spell its column and row (low and high bytes of each). */
function gradient(width: number, height: number, frames = 1): Pixels {
  const data = new Uint8Array(width * height * frames * 4)
  for (let y = 0; y < height * frames; y++) {
    for (let x = 0; x < width; x++) data.set([x & 255, x >> 8, y & 255, y >> 8], (y * width + x) * 4)
  }
  return { data, width, height, frames, channels: 4 }
}

const positionAt = (data: Uint8Array, i: number) => [
  data[i]! + 256 * data[i + 1]!,
  data[i + 2]! + 256 * data[i + 3]!,
]

const plan = { format: 'jpeg', flatten: false, background: '#ffffff' } as JobPlan

describe('sample', () => {
  test('cuts a 6 x 6 grid of block-aligned tiles, about a sixth of a large image', async () => {
    const pixels = gradient(1600, 1000)
    const sample = (await sampleOf(pixels, plan))!
    const { width, height, data } = sample.pixels
    expect(width).toBe(height)
    expect(width % (6 * 16)).toBe(0)
    expect((width * height) / (1600 * 1000)).toBeGreaterThan(0.1)
    expect((width * height) / (1600 * 1000)).toBeLessThan(1 / 6)
    const side = width / 6
    // Every tile is a copy of the image at a block-aligned origin, spread across the image.
    const origins = new Set<string>()
    for (let ty = 0; ty < 6; ty++) {
      for (let tx = 0; tx < 6; tx++) {
        const [x0, y0] = positionAt(data, (ty * side * width + tx * side) * 4) as [number, number]
        expect([x0 % 16, y0 % 16]).toEqual([0, 0])
        origins.add(`${x0},${y0}`)
        const last = ((ty * side + side - 1) * width + tx * side + side - 1) * 4
        expect(positionAt(data, last)).toEqual([x0 + side - 1, y0 + side - 1])
      }
    }
    expect(origins.size).toBe(36)
  })

  test('scores the sample at the scale the whole image is scored at', async () => {
    const pixels = gradient(2000, 1500)
    const sample = (await sampleOf(pixels, plan))!
    const whole = comparisonSize(2000, 1500)
    expect(sample.reference.width).toBe(Math.round((sample.pixels.width * whole.width) / 2000))
    expect(sample.reference.height).toBe(Math.round((sample.pixels.height * whole.height) / 1500))
  })

  test('leaves small images, animations and palettes whole', async () => {
    expect(await sampleOf(gradient(300, 300), plan)).toBeUndefined()
    expect(await sampleOf(gradient(4000, 20), plan)).toBeUndefined()
    expect(await sampleOf(gradient(1200, 900, 3), plan)).toBeUndefined()
    expect(await sampleOf(gradient(1200, 900), { ...plan, format: 'png' })).toBeUndefined()
    expect(await sampleOf(gradient(1200, 900), { ...plan, format: 'webp' })).toBeDefined()
  })
})

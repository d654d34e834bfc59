import sharp from 'sharp'
import { describe, expect, test } from 'bun:test'
import { sampleProbePlan } from '../../../src/image/search/auto-quality.ts'
import { jpegOptions } from '../../../src/image/steps/encoders.ts'
import { fixture } from '../../helpers/paths.ts'
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

describe('sample probes', () => {
  const jpeg = { ...plan, quality: 80, effort: 0, progressive: true, chromaSubsampling: '4:2:0' } as JobPlan

  test('a JPEG is probed baseline without Huffman optimisation; trellis (effort 1) and other formats as asked', () => {
    expect(sampleProbePlan(jpeg, 91)).toMatchObject({
      quality: 91,
      progressive: false,
      effort: 0,
      scoredOnly: true,
    })
    expect(jpegOptions(sampleProbePlan(jpeg, 91)).optimiseCoding).toBe(false)
    expect(jpegOptions(jpeg).optimiseCoding).toBe(true)
    expect(sampleProbePlan({ ...jpeg, effort: 1 }, 91)).toMatchObject({ progressive: true, effort: 1 })
    expect(sampleProbePlan({ ...jpeg, effort: 1 }, 91).scoredOnly).toBeUndefined()
    expect(sampleProbePlan({ ...jpeg, format: 'webp', effort: 4 }, 70)).toMatchObject({
      quality: 70,
      effort: 2,
    })
  })

  // Why probes score what the answer would: the very same decoded pixels.
  test('progressive, baseline and unoptimised JPEG at the same settings decode to the very same pixels', async () => {
    const { data, info } = await sharp(await fixture('photo-exif-orientation-6.jpg'))
      .raw()
      .toBuffer({ resolveWithObject: true })
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } }
    for (const quality of [30, 80, 95]) {
      for (const chromaSubsampling of ['4:2:0', '4:4:4'] as const) {
        const decoded = async (progressive: boolean, scoredOnly?: boolean) => {
          const options = jpegOptions({ ...jpeg, quality, chromaSubsampling, progressive, scoredOnly })
          const encoded = await sharp(data, raw).jpeg(options).toBuffer()
          return { encoded, pixels: await sharp(encoded).raw().toBuffer() }
        }
        const progressive = await decoded(true)
        const [baseline, probe] = [await decoded(false), await decoded(false, true)]
        expect([quality, chromaSubsampling, progressive.pixels.equals(baseline.pixels)]).toEqual([
          quality,
          chromaSubsampling,
          true,
        ])
        expect(probe.pixels.equals(baseline.pixels)).toBe(true)
        // Not the same file: the probe's entropy coding is not optimised.
        expect(probe.encoded.length).toBeGreaterThan(baseline.encoded.length)
      }
    }
  })
})

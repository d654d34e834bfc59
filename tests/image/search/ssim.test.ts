import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { sharp } from '../../../src/image/sharp.ts'
import {
  bt601Luma,
  comparisonSize,
  measureSimilarity,
  prepareRawReference,
  prepareReference,
  scoreCandidate,
  SIMILARITY_MAX_PIXELS,
  toLumaPlane,
} from '../../../src/image/search/similarity.ts'
import { prepareSsim, primeSsim, ssim, ssimAgainst, SSIM_WINDOW } from '../../../src/image/search/ssim.ts'
import { fixture, FIXTURES, ROOT } from '../../helpers/paths.ts'
import reference from './ssim-reference.json'

const plane = (name: string) => Bun.file(join(FIXTURES, 'ssim', name)).bytes()
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
const pair = (name: string) => reference.pairs.find((p) => p.name === name)!

/** Deterministic noise, so a failure can be replayed. */
function noisePlane(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0, s = seed; i < length; i++) out[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24
  return out
}

/**
 * SSIM straight from Wang et al.'s definition with skimage's parameters: for every window wholly
 * inside the planes, the Gaussian-weighted means, variances and covariance, summed in 2-D.
 */
function directSsim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const bell = (x: number) => Math.exp(-(x * x) / (2 * 1.5 * 1.5))
  const taps = Array.from({ length: 11 }, (_, i) => bell(i - 5))
  const sum = taps.reduce((s, t) => s + t, 0)
  const [c1, c2] = [(0.01 * 255) ** 2, (0.03 * 255) ** 2]
  let total = 0
  for (let y = 5; y < height - 5; y++) {
    for (let x = 5; x < width - 5; x++) {
      let [ua, ub, aa, bb, ab] = [0, 0, 0, 0, 0]
      for (let dy = -5; dy <= 5; dy++) {
        for (let dx = -5; dx <= 5; dx++) {
          const w = (taps[dy + 5]! * taps[dx + 5]!) / (sum * sum)
          const [va, vb] = [a[(y + dy) * width + x + dx]!, b[(y + dy) * width + x + dx]!]
          ua += w * va
          ub += w * vb
          aa += w * va * va
          bb += w * vb * vb
          ab += w * va * vb
        }
      }
      const [sa, sb, cov] = [aa - ua * ua, bb - ub * ub, ab - ua * ub]
      total += ((2 * ua * ub + c1) * (2 * cov + c2)) / ((ua * ua + ub * ub + c1) * (sa + sb + c2))
    }
  }
  return total / ((width - 10) * (height - 10))
}

describe('ssim', () => {
  test.each(reference.pairs.map((p) => [p.name, p] as const))(
    'matches scikit-image within 1e-9 on the committed pair %s',
    async (_, p) => {
      const [a, b] = await Promise.all([plane(p.reference), plane(p.candidate)])
      // The planes are the ones skimage was run on, not ones regenerated since.
      expect([sha256(a), sha256(b)]).toEqual([p.referenceSha256, p.candidateSha256])
      expect(Math.abs(ssim(a, b, p.width, p.height) - p.ssim)).toBeLessThan(1e-9)
    },
  )

  test('gives exactly 1 for identical planes, 8-bit or float', async () => {
    const photo = await plane('photo.gray')
    expect(ssim(photo, photo.slice(), 192, 144)).toBe(1)
    const noise = noisePlane(57 * 31, 7)
    expect(ssim(noise, noise.slice(), 57, 31)).toBe(1)
    expect(ssim(Float32Array.from(noise), Float32Array.from(noise), 57, 31)).toBe(1)
  })

  test('falls as JPEG quality falls on the photo (q90 > q50 > q20)', async () => {
    const photo = await plane('photo.gray')
    const score = async (q: number) => ssim(photo, await plane(`photo-jpeg-q${q}.gray`), 192, 144)
    const [q20, q50, q90] = await Promise.all([score(20), score(50), score(90)])
    expect(q90).toBeGreaterThan(q50)
    expect(q50).toBeGreaterThan(q20)
    expect(q90).toBeLessThan(1)
  })

  test('is the same whichever plane comes first', () => {
    const [a, b] = [noisePlane(40 * 30, 1), noisePlane(40 * 30, 2)]
    expect(ssim(a, b, 40, 30)).toBeCloseTo(ssim(b, a, 40, 30), 14)
  })

  test('scores against a kept reference exactly as afresh, whichever reference was scored last', () => {
    // The kernel keeps the last reference's filtered statistics: scoring against another in
    // between, or one of the same length in another shape, must not reuse them.
    const plane = noisePlane(60 * 40, 3)
    const references = [
      prepareSsim(plane, 60, 40),
      prepareSsim(noisePlane(60 * 40, 4), 60, 40),
      prepareSsim(plane, 40, 60),
    ]
    const candidates = [noisePlane(60 * 40, 5), noisePlane(60 * 40, 6)]
    const afresh = references.map(({ plane: a, width, height }) =>
      candidates.map((b) => ssim(a, b, width, height)),
    )
    for (const r of [0, 0, 1, 0, 2, 2, 0, 2, 1, 1]) {
      candidates.forEach((b, c) => expect(ssimAgainst(references[r]!, b)).toBe(afresh[r]![c]!))
    }
    // Readied ahead (while a candidate encodes), in any order, a reference scores the same.
    for (const [primed, r] of [
      [1, 1],
      [2, 0],
      [0, 0],
      [1, 2],
      [2, 2],
    ] as const) {
      primeSsim(references[primed]!)
      candidates.forEach((b, c) => expect(ssimAgainst(references[r]!, b)).toBe(afresh[r]![c]!))
    }
  })

  test('equals a direct evaluation of the definition on planes of odd and even widths', () => {
    // Odd output widths take the kernel's masked last column; several sizes in one call order
    // check that one plane's samples never leak into the next call.
    for (const [width, height] of [
      [11, 11],
      [12, 13],
      [40, 30],
      [57, 31],
      [23, 64],
    ] as const) {
      const [a, b] = [noisePlane(width * height, width), noisePlane(width * height, height + 1)]
      const blurred = Uint8Array.from(b, (v, i) => (v + a[i]!) >> 1)
      for (const candidate of [b, blurred]) {
        expect(
          Math.abs(ssim(a, candidate, width, height) - directSsim(a, candidate, width, height)),
        ).toBeLessThan(1e-12)
      }
    }
  })

  test('rejects planes smaller than the window or of another length than width x height', () => {
    const small = new Uint8Array(10 * 20)
    expect(() => ssim(small, small, 10, 20)).toThrow(`at least ${SSIM_WINDOW}`)
    expect(() => ssim(new Uint8Array(12 * 12), new Uint8Array(12 * 13), 12, 12)).toThrow('144 samples')
  })
})

describe('similarity', () => {
  const upright = async (name: string) => sharp(await fixture(name)).autoOrient()

  test('scores re-encodes of the photo in (0, 1], falling with JPEG quality, and the photo itself 1', async () => {
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const ref = await prepareReference(photo)
    expect([ref.width, ref.height]).toEqual([600, 450])
    const scores: number[] = []
    for (const quality of [20, 50, 90]) {
      const candidate = await (await upright('photo-exif-orientation-6.jpg')).jpeg({ quality }).toBuffer()
      const result = await scoreCandidate(ref, candidate)
      expect(result.metric).toBe('ssim')
      scores.push(result.score)
    }
    expect(scores[0]).toBeGreaterThan(0)
    expect(scores[0]!).toBeLessThan(scores[1]!)
    expect(scores[1]!).toBeLessThan(scores[2]!)
    expect(scores[2]!).toBeLessThan(1)
    expect(await measureSimilarity(photo, await upright('photo-exif-orientation-6.jpg'))).toEqual({
      metric: 'ssim',
      score: 1,
    })
  })

  test('reads encoded bytes upright by their EXIF orientation', async () => {
    const plane = await toLumaPlane(await fixture('photo-exif-orientation-6.jpg'))
    expect([plane.width, plane.height]).toEqual([600, 450])
  })

  test('ignores the colour under fully transparent pixels and flattens them onto white', async () => {
    /** Left half opaque blue-grey, right half `right` (RGBA). */
    const halves = (right: readonly number[]) => {
      const pixels = new Uint8Array(32 * 32 * 4)
      for (let i = 0; i < 32 * 32; i++) pixels.set(i % 32 < 16 ? [20, 40, 60, 255] : right, i * 4)
      return sharp(pixels, { raw: { width: 32, height: 32, channels: 4 } })
    }
    const hiddenRed = halves([255, 0, 0, 0])
    expect((await measureSimilarity(hiddenRed, halves([0, 0, 255, 0]))).score).toBe(1)
    expect((await measureSimilarity(hiddenRed, halves([255, 255, 255, 255]))).score).toBe(1)
    expect((await measureSimilarity(hiddenRed, halves([0, 0, 0, 255]))).score).toBeLessThan(0.5)
  })

  test('scores a JPEG of an image with alpha, flattened onto white, close to it', async () => {
    const original = await fixture('webp-lossy-alpha.webp')
    const jpeg = await sharp(original).flatten({ background: '#fff' }).jpeg({ quality: 90 }).toBuffer()
    const { score } = await measureSimilarity(original, jpeg)
    expect(score).toBeGreaterThan(0.95)
    expect(score).toBeLessThan(1)
  })

  test('compares a candidate of another size at the reference size, lower than the same quality at full size', async () => {
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const ref = await prepareReference(photo)
    const full = await (await upright('photo-exif-orientation-6.jpg')).jpeg({ quality: 90 }).toBuffer()
    const half = await (
      await upright('photo-exif-orientation-6.jpg')
    )
      .resize(300)
      .jpeg({ quality: 90 })
      .toBuffer()
    const halfScore = (await scoreCandidate(ref, half)).score
    expect(halfScore).toBeGreaterThan(0)
    expect(halfScore).toBeLessThan((await scoreCandidate(ref, full)).score)
  })

  test('scores a WebP over the pixel bound from its bytes as from its decoded pixels (no libwebp scaling)', async () => {
    const big = await (await upright('photo-exif-orientation-6.jpg')).resize(1500).png().toBuffer()
    const webp = await sharp(big).webp({ quality: 95 }).toBuffer()
    const decoded = await sharp(webp).png().toBuffer()
    const ref = await prepareReference(big)
    const [fromBytes, fromPixels] = await Promise.all([
      scoreCandidate(ref, webp),
      scoreCandidate(ref, sharp(decoded)),
    ])
    expect(Math.abs(fromBytes.score - fromPixels.score)).toBeLessThan(1e-4)
    expect(fromBytes.score).toBeGreaterThan(0.98)
  })

  test('enlarges an image smaller than the SSIM window and shrinks one over the pixel bound', async () => {
    const tiny = await fixture('png-tiny-1x1-prophoto-icc.png')
    expect((await measureSimilarity(tiny, tiny)).score).toBe(1)
    expect(comparisonSize(1, 1)).toEqual({ width: SSIM_WINDOW, height: SSIM_WINDOW })
    const big = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer()
    const plane = await toLumaPlane(big)
    expect(plane.width * plane.height).toBeLessThanOrEqual(SIMILARITY_MAX_PIXELS)
    expect(plane.width / plane.height).toBeCloseTo(1.5, 2)
  })

  test('takes BT.601 luma of the sRGB-encoded values, rounded', () => {
    const pixels = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128])
    expect([...bt601Luma(pixels, 3)]).toEqual([76, 150, 29, 128])
  })

  test('rounds luma as Math.round does, for every 8-bit colour', () => {
    const pixels = new Uint8Array(256 * 256 * 3)
    for (let r = 0; r < 256; r++) {
      for (let i = 0, g = 0; g < 256; g++) {
        for (let b = 0; b < 256; b++, i += 3) pixels.set([r, g, b], i)
      }
      const luma = bt601Luma(pixels.subarray(0, 256 * 256 * 3), 3)
      let mismatches = 0
      for (let g = 0, i = 0; g < 256; g++) {
        for (let b = 0; b < 256; b++, i++) {
          if (luma[i] !== Math.round(0.299 * r + 0.587 * g + 0.114 * b)) mismatches++
        }
      }
      expect({ r, mismatches }).toEqual({ r, mismatches: 0 })
    }
  })

  test('prepares a reference from decoded samples as from the same samples in a pipeline', async () => {
    const { data, info } = await (
      await upright('webp-lossy-alpha.webp')
    )
      .resize(1400)
      .raw()
      .toBuffer({ resolveWithObject: true })
    const raw = { data, width: info.width, height: info.height, channels: info.channels as 4 }
    const pipeline = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    for (const background of [undefined, '#ff8000']) {
      const direct = await prepareRawReference(raw, background)
      const rendered = await prepareReference(background ? pipeline().flatten({ background }) : pipeline())
      expect([direct.width, direct.height]).toEqual([rendered.width, rendered.height])
      expect(Buffer.compare(direct.data, rendered.data)).toBe(0)
    }
  })

  test('leaves a sharp pipeline passed as the reference unchanged', async () => {
    const pipeline = (await upright('photo-exif-orientation-6.jpg')).resize(200)
    await prepareReference(pipeline)
    const { info } = await pipeline.jpeg().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height, info.format]).toEqual([200, 150, 'jpeg'])
  })
})

/** A Python with scikit-image, looked for in CI only: spawning it costs a second. */
function pythonWithSkimage(): string | undefined {
  if (!process.env.CI) return undefined
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      if (Bun.spawnSync([python, '-c', 'import skimage']).exitCode === 0) return python
    } catch {
      // Not installed under this name.
    }
  }
  return undefined
}

const python = pythonWithSkimage()

test.skipIf(python === undefined)('bench/ssim-reference/ still gives the committed values', () => {
  const run = Bun.spawnSync([python!, join(ROOT, 'bench/ssim-reference/ssim-reference.py'), '--stdout'])
  expect(run.exitCode).toBe(0)
  const fresh = JSON.parse(run.stdout.toString()) as typeof reference
  for (const p of fresh.pairs) expect(Math.abs(p.ssim - pair(p.name).ssim)).toBeLessThan(1e-9)
})

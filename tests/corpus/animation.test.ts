import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode, decodePixels } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import {
  CONCURRENT_SUITE,
  ANIMATED_OUTPUTS,
  WRITABLE,
  compress,
  inputFacts,
  type Compressed,
} from './support.ts'

announceCorpusSkip('corpus animation')

/** Frame counts stated by the manifest and the corpus notes. */
const ANIMATED: Record<string, number> = {
  'gif-animated-10frames.gif': 10,
  'webp-animated-10frames.webp': 10,
  'png-apng-animated-ball.png': 20,
}

/** Number of different frames in an animated output, from its fully decoded pixels. */
async function distinctFrames(result: Compressed): Promise<number> {
  const decoded = await decode(result.bytes)
  const pixels = await decodePixels(result.bytes)
  const frameBytes = pixels.length / decoded.pages
  const frames = new Set<string>()
  for (let i = 0; i < decoded.pages; i++) {
    frames.add(Bun.hash(pixels.subarray(i * frameBytes, (i + 1) * frameBytes)).toString())
  }
  return frames.size
}

describe.skipIf(!HAS_CORPUS)('corpus animation', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  test('gif and webp are the outputs that keep animation, per /api/formats', () => {
    expect([...ANIMATED_OUTPUTS].sort()).toEqual(['gif', 'webp'])
  })

  for (const [file, frames] of Object.entries(ANIMATED)) {
    test(`${file} is an animation of ${frames} frames`, async () => {
      expect((await inputFacts(file)).frames).toBe(frames)
    })

    for (const output of WRITABLE) {
      const animated = ANIMATED_OUTPUTS.includes(output)
      const expected = animated ? `keeps all ${frames} frames, not all identical` : 'gives one frame'
      test.concurrent(`${file} converted to ${output} ${expected}`, async () => {
        const input = await inputFacts(file)
        const result = await compress(api, input.bytes, file, { format: output })
        expect(result.status).toBe(200)
        const decoded = await decode(result.bytes)
        expect(decoded.pages).toBe(animated ? frames : 1)
        expect([decoded.width, decoded.height]).toEqual([input.width, input.height])
        // The height header is one frame's, not the stacked strip's.
        expect([result.int('x-image-width'), result.int('x-image-height')]).toEqual([
          input.width,
          input.height,
        ])
        if (animated) expect(await distinctFrames(result)).toBeGreaterThan(1)
      })
    }

    for (const output of ANIMATED_OUTPUTS) {
      test.concurrent(
        `${file} resized to width 50 as ${output} keeps all ${frames} frames at 50 px wide`,
        async () => {
          const input = await inputFacts(file)
          const result = await compress(api, input.bytes, file, { format: output, width: '50' })
          expect(result.status).toBe(200)
          const decoded = await decode(result.bytes)
          const height = Math.round((input.height * 50) / input.width)
          expect([decoded.width, decoded.height, decoded.pages]).toEqual([50, height, frames])
          expect([result.int('x-image-width'), result.int('x-image-height')]).toEqual([50, height])
          expect(await distinctFrames(result)).toBeGreaterThan(1)
        },
      )
    }
  }
})

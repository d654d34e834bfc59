import sharp from 'sharp'
import { describe, expect, test } from 'bun:test'
import { configWith } from '../../../src/config.ts'
import { runPipeline } from '../../../src/image/pipeline.ts'
import { decodePixels, encodePixels } from '../../../src/image/search/index.ts'
import { planJob } from '../../../src/image/plan.ts'
import { probeImage } from '../../../src/image/probe.ts'
import { parseCompressOptions } from '../../../src/options/parse.ts'
import { fixture } from '../../helpers/paths.ts'

const config = configWith({})
const samples = async (data: Uint8Array) =>
  new Uint8Array(await sharp(data, { animated: true }).raw().toBuffer())
const OPTIONS = { maxInputPixels: config.maxInputPixels, timeoutSeconds: 30 }

const CASES = [
  ['photo-exif-orientation-6.jpg', 'format=jpeg&quality=70'],
  ['photo-exif-orientation-6.jpg', 'format=avif&width=300'],
  ['webp-lossy-alpha.webp', 'format=webp'],
  ['webp-lossy-alpha.webp', 'format=jpeg&background=%23ff0000'],
  ['gif-animated-10frames.gif', 'format=webp'],
  ['png-apng-animated-ball.png', 'format=gif'],
  ['png-tiny-1x1-prophoto-icc.png', 'format=png&width=40&withoutEnlargement=false'],
  ['tiff-rgb-uncompressed.tiff', 'format=tiff'],
] as const

describe('transform once, encode many', () => {
  for (const [file, query] of CASES) {
    test(`${file} ?${query}: encoding the transformed pixels gives the one-pass pipeline's very bytes`, async () => {
      const input = await fixture(file)
      const probe = await probeImage(input, config.maxUploadBytes)
      const plan = planJob(parseCompressOptions(new Map(new URLSearchParams(query)), config), probe, config)
      const onePass = await runPipeline(input, probe, plan, OPTIONS)
      const pixels = await decodePixels(input, probe, plan, OPTIONS)
      expect(pixels.data.length).toBe(pixels.width * pixels.height * pixels.frames * pixels.channels)
      const fromPixels = await encodePixels(pixels, probe, plan, 30)
      expect([fromPixels.width, fromPixels.height, fromPixels.frames]).toEqual([
        onePass.width,
        onePass.height,
        onePass.frames,
      ])
      // The same pixels, encoded the same way: the same file size and the same decoded samples
      // (the bytes themselves are equal too, except where the PNG writer orders a palette differently).
      expect(fromPixels.data.length).toBe(onePass.data.length)
      expect(await samples(fromPixels.data)).toEqual(await samples(onePass.data))
    })
  }
})

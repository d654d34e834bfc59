/*
 * The memory cases and the files they start from, written to a temporary folder: the main photo
 * as a JPEG at each size (input = output), a 16-bit PNG (twice the bytes per decoded pixel),
 * small images enlarged (output far above input, which an input-pixel limit alone does not
 * bound), the largest JPEG shrunk (input far above output) and random noise.
 */
import { join } from 'node:path'
import { sharp } from '../../src/image/sharp.ts'
import type { MemoryCase, MemoryInput } from './cases.ts'
import type { MemoryJob } from './child.ts'
import { describeEncode, type EncodeSpec } from './encodes.ts'
import { noiseAt } from './timing.ts'

export interface CorpusFiles {
  readonly mainPhoto: string
  readonly png16: string
  readonly smallPhoto: string
  readonly animatedGif: string
}

/** Seconds an encode is expected to take at this many output megapixels. */
export type Predict = (spec: EncodeSpec, megapixels: number) => number

const SAME_SIZE_ENCODES: readonly EncodeSpec[] = [
  { codec: 'jpeg' },
  { codec: 'webp' },
  { codec: 'avif', effort: 4 },
  // Effort 6 rather than 9 (25 s a megapixel): enough to show how memory moves with effort.
  { codec: 'avif', effort: 6 },
  { codec: 'png', effort: 10 },
  { codec: 'gif', effort: 10 },
]
const PNG16_ENCODES: readonly EncodeSpec[] = [
  { codec: 'jpeg' },
  { codec: 'webp' },
  { codec: 'avif', effort: 4 },
  { codec: 'png', effort: 10 },
]
const ENLARGED_ENCODES: readonly EncodeSpec[] = [{ codec: 'jpeg' }, { codec: 'webp' }]
const ENLARGED_SIDE = 4000
const DOWNSCALED_ENCODES: readonly EncodeSpec[] = [
  { codec: 'jpeg' },
  { codec: 'webp' },
  { codec: 'avif', effort: 4 },
]
/** A box of about 1 MP either way up, so a rotated photo shrinks to the same size. */
const DOWNSCALED_BOX = { width: 1333, height: 1333, fit: 'inside' as const }
const ANIMATED_FRAME_MEGAPIXELS = 4

async function describeFile(path: string, label: string): Promise<MemoryInput> {
  const { width = 0, height = 0 } = await sharp(path, { animated: true }).metadata()
  return { label, path, megapixels: (width * height) / 1e6 }
}

const widthFor = (megapixels: number, width: number, height: number) =>
  Math.round(Math.sqrt((megapixels * 1e6 * width) / height))

/** The photo as a quality-90 JPEG at about `megapixels`, or the file itself when undefined. */
async function jpegAt(dir: string, photo: string, megapixels?: number): Promise<MemoryInput> {
  const { width = 0, height = 0 } = await sharp(photo).metadata()
  if (megapixels === undefined) return describeFile(photo, `jpeg ${width}×${height}`)
  const path = join(dir, `photo-${megapixels}mp.jpg`)
  const info = await sharp(photo)
    .resize({ width: widthFor(megapixels, width, height) })
    .jpeg({ quality: 90 })
    .toFile(path)
  return { label: `jpeg ${info.width}×${info.height}`, path, megapixels: (info.width * info.height) / 1e6 }
}

/** The 16-bit PNG enlarged to about `megapixels`, still 16 bits per channel. */
async function png16At(dir: string, png16: string, megapixels: number): Promise<MemoryInput> {
  const { width = 0, height = 0 } = await sharp(png16).metadata()
  const path = join(dir, `png16-${megapixels}mp.png`)
  const resized = sharp(png16)
    .resize({ width: widthFor(megapixels, width, height) })
    .toColourspace('rgb16')
  const info = await resized.png({ compressionLevel: 1 }).toFile(path)
  const { depth } = await sharp(path).metadata()
  if (depth !== 'ushort') throw new Error(`expected a 16-bit PNG at ${path}, received depth ${depth}`)
  return {
    label: `png 16-bit ${info.width}×${info.height}`,
    path,
    megapixels: (info.width * info.height) / 1e6,
  }
}

function sameSizeCase(input: MemoryInput, from: string, encode: EncodeSpec, predict: Predict): MemoryCase {
  const job: MemoryJob = { input: input.path, encode, animated: false }
  return {
    pipeline: `${from} → ${describeEncode(encode)}`,
    input,
    job,
    predictedSeconds: predict(encode, input.megapixels),
  }
}

async function enlargedCases(files: CorpusFiles, predict: Predict): Promise<MemoryCase[]> {
  const small = await describeFile(files.smallPhoto, 'small jpeg, enlarged')
  const resize = { width: ENLARGED_SIDE, height: ENLARGED_SIDE, fit: 'fill' as const }
  const outputMegapixels = (ENLARGED_SIDE * ENLARGED_SIDE) / 1e6
  const stills = ENLARGED_ENCODES.map((encode) => ({
    pipeline: `jpeg enlarged to ${ENLARGED_SIDE}×${ENLARGED_SIDE} → ${describeEncode(encode)}`,
    input: small,
    job: { input: small.path, encode, animated: false, resize },
    predictedSeconds: predict(encode, outputMegapixels),
  }))
  const gif = await describeFile(files.animatedGif, 'animated gif, enlarged')
  const {
    width = 0,
    pageHeight = 0,
    pages = 1,
  } = await sharp(files.animatedGif, { animated: true }).metadata()
  const frameWidth = widthFor(ANIMATED_FRAME_MEGAPIXELS, width, pageHeight)
  const encode: EncodeSpec = { codec: 'webp' }
  const animated: MemoryCase = {
    pipeline: `animated gif, ${pages} frames enlarged to ~${ANIMATED_FRAME_MEGAPIXELS} MP each → webp`,
    input: gif,
    job: { input: gif.path, encode, animated: true, resize: { width: frameWidth, fit: 'inside' } },
    predictedSeconds: predict(encode, ANIMATED_FRAME_MEGAPIXELS * pages),
  }
  return [...stills, animated]
}

/**
 * The cost per input megapixel when the output is small: a large JPEG shrunk to ~1 MP, and the
 * same photo with EXIF orientation 6, whose rotation needs the whole decoded image at once.
 */
async function downscaledCases(dir: string, largest: MemoryInput, predict: Predict): Promise<MemoryCase[]> {
  const path = join(dir, 'photo-rotated.jpg')
  await sharp(largest.path).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toFile(path)
  const rotated = { ...largest, label: `${largest.label}, EXIF orientation 6`, path }
  const shrink = (input: MemoryInput, encode: EncodeSpec, how: string): MemoryCase => ({
    pipeline: `jpeg ${how} to ~1 MP → ${describeEncode(encode)}`,
    input,
    job: { input: input.path, encode, animated: false, resize: DOWNSCALED_BOX },
    predictedSeconds: predict(encode, 1),
  })
  const straight = DOWNSCALED_ENCODES.map((encode) => shrink(largest, encode, 'downscaled'))
  return [...straight, shrink(rotated, { codec: 'webp' }, 'rotated and downscaled')]
}

/** Noise at 1 and 4 MP, as a lossless PNG: the content that makes encoders work (and hold) most. */
async function noiseCases(dir: string): Promise<MemoryCase[]> {
  const inputs: MemoryInput[] = []
  for (const megapixels of [1, 4]) {
    const path = join(dir, `noise-${megapixels}mp.png`)
    const { data, width, height, channels } = await noiseAt(megapixels)
    await sharp(data, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toFile(path)
    inputs.push({ label: `noise png ${width}×${height}`, path, megapixels: (width * height) / 1e6 })
  }
  const [small, large] = inputs as [MemoryInput, MemoryInput]
  // Sizes chosen by hand: the grid's times, made on a photo, would misjudge noise by up to 9×.
  const plan: [MemoryInput, EncodeSpec][] = [
    [small, { codec: 'avif', effort: 3 }],
    [large, { codec: 'avif', effort: 3 }],
    [small, { codec: 'avif', effort: 4 }],
    [small, { codec: 'png', effort: 4 }],
    [large, { codec: 'png', effort: 4 }],
    [small, { codec: 'png', effort: 10 }],
    [large, { codec: 'gif', effort: 4 }],
  ]
  return plan.map(([input, encode]) => sameSizeCase(input, 'noise png', encode, () => 0))
}

/** Every memory case, each pipeline's smallest input first (see measureMemory's budget rule). */
export async function prepareMemoryCases(
  dir: string,
  files: CorpusFiles,
  sizes: readonly (number | undefined)[],
  predict: Predict,
): Promise<MemoryCase[]> {
  const jpegs: MemoryInput[] = []
  for (const megapixels of sizes) jpegs.push(await jpegAt(dir, files.mainPhoto, megapixels))
  const png16s = [await describeFile(files.png16, 'png 16-bit (corpus)'), await png16At(dir, files.png16, 4)]
  return [
    ...SAME_SIZE_ENCODES.flatMap((encode) =>
      jpegs.map((input) => sameSizeCase(input, 'jpeg', encode, predict)),
    ),
    ...PNG16_ENCODES.flatMap((encode) =>
      png16s.map((input) => sameSizeCase(input, 'png 16-bit', encode, predict)),
    ),
    ...(await enlargedCases(files, predict)),
    ...(await downscaledCases(dir, jpegs.at(-1)!, predict)),
    ...(await noiseCases(dir)),
  ]
}

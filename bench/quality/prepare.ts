/*
 * The one prepared input every tool of quality.ts starts from, for each corpus image it
 * compresses (bench/common/corpus.ts): decoded, upright, sRGB, at most ~2 megapixels (to keep
 * the run bounded), written losslessly as PNG; and for the JPEG recompressor, which only takes
 * JPEG, a quality-95 4:4:4 JPEG of the same pixels.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { sharp } from '../../src/image/sharp.ts'
import type { CorpusImage } from '../common/corpus.ts'

export interface PreparedImage extends CorpusImage {
  readonly png: string
  /** The JPEG tools' input: sharp's quality 95, 4:4:4, of the PNG's pixels (flattened on white). */
  readonly jpeg: string
  readonly width: number
  readonly height: number
  readonly alpha: boolean
  readonly pngBytes: number
}

const MAX_PIXELS = 2_000_000

/** Width and height scaled to at most MAX_PIXELS, aspect ratio kept; never enlarged. */
function boundedSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (width * height)))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

export async function prepareImage(corpus: string, image: CorpusImage, dir: string): Promise<PreparedImage> {
  const source = join(corpus, image.file)
  const upright = sharp(source, { failOn: 'truncated' }).autoOrient().toColourspace('srgb')
  const { data, info } = await upright.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true })
  const size = boundedSize(info.width, info.height)
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const alpha = info.channels === 4 && !(await sharp(data, { raw }).stats()).isOpaque
  const base = image.file.replace(/\.[^.]+$/, '')
  const png = join(dir, `${base}.png`)
  let pixels = sharp(data, { raw }).resize({ ...size, fit: 'fill', kernel: 'lanczos3' })
  if (!alpha) pixels = pixels.removeAlpha()
  // Level 9 with adaptive filtering: a well-compressed PNG, whose size the byte targets are set from.
  await pixels.png({ compressionLevel: 9, adaptiveFiltering: true }).toFile(png)
  const jpeg = join(dir, `${base}.q95.jpg`)
  await sharp(png)
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toFile(jpeg)
  return { ...image, png, jpeg, ...size, alpha, pngBytes: statSync(png).size }
}

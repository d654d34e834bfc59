/*
 * The corpus images that the quality and smart-mode studies compress, each with its class (from
 * its name in the corpus MANIFEST.tsv), and the output formats each class is compressed to.
 */
import { readManifest as readManifestRows } from '../../tests/helpers/paths.ts'

/** Photos in JPEG and the other lossy or legacy formats; PNG photos; PNG and WebP graphics and screenshots. */
export type ImageClass = 'photo' | 'png-photo' | 'graphic'
export const IMAGE_CLASSES: readonly ImageClass[] = ['photo', 'png-photo', 'graphic']

/** The output formats compared. */
export type Codec = 'jpeg' | 'webp' | 'avif' | 'png'

export const FORMATS_BY_CLASS: Readonly<Record<ImageClass, readonly Codec[]>> = {
  photo: ['jpeg', 'webp', 'avif'],
  'png-photo': ['jpeg', 'webp', 'avif', 'png'],
  graphic: ['png', 'webp'],
}

export interface CorpusImage {
  readonly file: string
  readonly imageClass: ImageClass
}

/** Files left out, each with why. */
const SKIPPED: readonly [RegExp, string][] = [
  [/^bad-/, 'broken on purpose'],
  [/^svg-|^jxl-/, 'SVG and JPEG XL: no peer tool reads them'],
  [/animated|apng/, 'animation'],
  [/^png-tiny-/, 'one pixel: nothing for SSIM to compare'],
]

const CLASS_RULES: readonly [RegExp, ImageClass][] = [
  [/^png-photo-/, 'png-photo'],
  [/^png-|^webp-lossless-|^webp-lossy-alpha|^webp-lossy-wallpaper-/, 'graphic'],
  [/^photo-|^webp-lossy-photo-|^avif-|^gif-photo-|^tiff-/, 'photo'],
]

/** Every usable corpus image with its class, in the manifest's order, and what was skipped. */
export function readManifest(corpus: string): { images: CorpusImage[]; skipped: string[] } {
  const images: CorpusImage[] = []
  const skipped: string[] = []
  for (const { file, format, notes } of readManifestRows(corpus)) {
    const text = `${file} ${format} ${notes}`.toLowerCase()
    const skip = SKIPPED.find(([pattern]) => pattern.test(file) || pattern.test(text))
    const imageClass = CLASS_RULES.find(([pattern]) => pattern.test(file))?.[1]
    if (skip || !imageClass) skipped.push(`${file} (${skip?.[1] ?? 'no class'})`)
    else images.push({ file, imageClass })
  }
  return { images, skipped }
}

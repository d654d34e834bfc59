/* The images and bodies the attacks send: fixtures and corpus photos, and bodies built once per run. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { CORPUS, HAS_CORPUS, readManifest, type ManifestRow } from '../../tests/helpers/paths.ts'

export { corpusFile, CORPUS, fixture, HAS_CORPUS } from '../../tests/helpers/paths.ts'

/** The small image every warm-up and keep-alive scenario sends (450×600 JPEG, 134 KiB). */
export const SMALL_PHOTO = 'photo-exif-orientation-6.jpg'

export function corpusRows(): ManifestRow[] {
  return HAS_CORPUS ? readManifest(CORPUS) : []
}

/** Corpus JPEG photos (photo-*.jpg), whose files are present. */
export function corpusPhotos(): ManifestRow[] {
  return corpusRows().filter((row) => /^photo-.*\.jpg$/.test(row.file) && existsSync(join(CORPUS, row.file)))
}

export const corpusMissing = () => (HAS_CORPUS ? undefined : `the shared corpus is not at ${CORPUS}`)

/** A 1×1 PNG: the smallest input that can ask for the largest output. */
export function onePixelPng(): Promise<Buffer> {
  return sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
    .png()
    .toBuffer()
}

/** Bytes that are no image (random, so no compression on the way helps), built by repeating 64 KiB. */
export function noise(bytes: number): Uint8Array {
  const body = new Uint8Array(bytes)
  crypto.getRandomValues(body.subarray(0, Math.min(bytes, 65_536)))
  for (let offset = 65_536; offset < bytes; offset += 65_536) body.copyWithin(offset, 0, 65_536)
  return body
}

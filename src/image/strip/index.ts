import type { OutputFormat } from '../../formats/format-table.ts'
import { stripJpegMetadata } from './jpeg.ts'
import { stripPngMetadata } from './png.ts'
import { stripWebpMetadata } from './webp.ts'

type Stripper = (bytes: Uint8Array) => Uint8Array | undefined

/** Byte-level, lossless metadata removal for the formats where it is simple and safe. */
export const STRIPPERS: Partial<Record<OutputFormat, Stripper>> = {
  jpeg: stripJpegMetadata,
  png: stripPngMetadata,
  webp: stripWebpMetadata,
}

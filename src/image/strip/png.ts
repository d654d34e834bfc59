import { PNG_SIGNATURE, isPng, pngChunks } from '../png-chunks.ts'

/** Text, EXIF and timestamp chunks: where PNG keeps metadata (XMP lives in iTXt). */
const METADATA_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME'])

/**
 * Drops metadata chunks and anything after IEND, keeping every chunk that affects pixels,
 * colour or animation. Lossless; undefined when the chunk stream is damaged.
 */
export function stripPngMetadata(bytes: Uint8Array): Uint8Array | undefined {
  if (!isPng(bytes)) return undefined
  const kept: Uint8Array[] = [bytes.subarray(0, PNG_SIGNATURE.length)]
  let sawEnd = false
  for (const chunk of pngChunks(bytes)) {
    if (!METADATA_CHUNKS.has(chunk.type)) kept.push(bytes.subarray(chunk.start, chunk.end))
    sawEnd = chunk.type === 'IEND'
  }
  if (!sawEnd) return undefined
  return Buffer.concat(kept)
}

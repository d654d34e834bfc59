/*
 * A PNG's image data compressed again at another zlib level, every other chunk kept as it is.
 * A palette search (quality=auto on PNG) scores several encodes and sends one: its probes are
 * written stored (zlib level 0, the same palette and pixels for a fraction of the time on
 * graphics) and the answer is deflated once. zlib's level 9 with its default window, memory
 * level and strategy, as libvips writes PNG, gives the very stream libvips writes
 * (tests/image/png-deflate.test.ts); only the split into IDAT chunks differs.
 */
import { promisify } from 'node:util'
import { deflate, inflate } from 'node:zlib'
import { encodePngChunk, isPng, PNG_SIGNATURE, pngChunks } from './png-chunks.ts'

const deflated = promisify(deflate)
const inflated = promisify(inflate)

/**
 * `png` with its image data deflated at `level`, in one IDAT chunk; undefined for an animated
 * PNG, whose frames' data lies in other chunks. Throws on bytes that are not a whole PNG.
 */
export async function deflatePng(png: Uint8Array, level: number): Promise<Uint8Array | undefined> {
  if (!isPng(png)) throw new Error('expected a PNG signature')
  const chunks = [...pngChunks(png)]
  if (chunks.at(-1)?.type !== 'IEND') throw new Error('expected whole chunks up to IEND')
  if (chunks.some((chunk) => chunk.type === 'acTL' || chunk.type === 'fdAT')) return undefined
  const idat = chunks.filter((chunk) => chunk.type === 'IDAT')
  if (idat.length === 0) throw new Error('expected an IDAT chunk')
  const data = await deflated(await inflated(Buffer.concat(idat.map((chunk) => chunk.data))), { level })
  const parts: Uint8Array[] = [Uint8Array.from(PNG_SIGNATURE)]
  for (const chunk of chunks) {
    if (chunk.type !== 'IDAT') parts.push(png.subarray(chunk.start, chunk.end))
    else if (chunk === idat[0]) parts.push(encodePngChunk('IDAT', data))
  }
  return Buffer.concat(parts)
}

/*
 * A PNG's image data compressed again at another zlib level, every other chunk kept as it is.
 * A palette search (quality=auto on PNG) scores several encodes and sends one: its probes are
 * written stored (zlib level 0, the same palette and pixels for a fraction of the time on
 * graphics) and the answer is deflated once. zlib's level 9 with its default window, memory
 * level and strategy, as libvips writes PNG, gives the very stream libvips writes
 * (tests/image/png-deflate.test.ts); only the split into IDAT chunks differs.
 */
import { promisify } from 'node:util'
import { crc32, deflate, inflate } from 'node:zlib'

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10)
const deflated = promisify(deflate)
const inflated = promisify(inflate)

interface Chunk {
  readonly type: string
  readonly data: Uint8Array
}

function readChunks(png: Uint8Array): Chunk[] {
  if (png.length < SIGNATURE.length || SIGNATURE.some((byte, i) => png[i] !== byte))
    throw new Error('expected a PNG signature')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks: Chunk[] = []
  for (let at = SIGNATURE.length; at < png.length;) {
    if (at + 12 > png.length) throw new Error(`expected a whole chunk at byte ${at}`)
    const length = view.getUint32(at)
    const end = at + 12 + length
    if (end > png.length) throw new Error(`expected ${length} bytes of chunk data at byte ${at}`)
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8))
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length) })
    at = end
  }
  return chunks
}

function chunkBytes({ type, data }: Chunk): Uint8Array {
  const bytes = new Uint8Array(12 + data.length)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, data.length)
  for (let i = 0; i < 4; i++) bytes[4 + i] = type.charCodeAt(i)
  bytes.set(data, 8)
  view.setUint32(8 + data.length, crc32(bytes.subarray(4, 8 + data.length)))
  return bytes
}

/**
 * `png` with its image data deflated at `level`, in one IDAT chunk; undefined for an animated
 * PNG, whose frames' data lies in other chunks. Throws on bytes that are not a PNG.
 */
export async function deflatePng(png: Uint8Array, level: number): Promise<Uint8Array | undefined> {
  const chunks = readChunks(png)
  if (chunks.some((chunk) => chunk.type === 'acTL' || chunk.type === 'fdAT')) return undefined
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT')
  if (first < 0) throw new Error('expected an IDAT chunk')
  const idat = chunks.filter((chunk) => chunk.type === 'IDAT')
  const data = new Uint8Array(
    await deflated(await inflated(Buffer.concat(idat.map((c) => c.data))), { level }),
  )
  const kept = chunks.filter((chunk) => chunk.type !== 'IDAT')
  kept.splice(first, 0, { type: 'IDAT', data })
  return Buffer.concat([SIGNATURE, ...kept.map(chunkBytes)])
}

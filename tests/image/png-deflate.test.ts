import { describe, expect, test } from 'bun:test'
import { inflateSync } from 'node:zlib'
import { deflatePng } from '../../src/image/png-deflate.ts'
import { sharp } from '../../src/image/sharp.ts'
import { fixture } from '../helpers/paths.ts'

/** Chunk types in order, and the IDAT data joined, read without any PNG library. */
function chunksOf(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const types: string[] = []
  const idat: Uint8Array[] = []
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at)
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8))
    types.push(type)
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  return { types, idat: Buffer.concat(idat) }
}

describe('deflatePng', () => {
  test('a stored palette PNG deflated at 9 is the image libvips writes at 9: the same stream, pixels and chunks', async () => {
    const photo = sharp(await fixture('webp-lossy-alpha.webp'))
    const png = (compressionLevel: number) =>
      photo.clone().png({ palette: true, quality: 70, effort: 7, compressionLevel }).toBuffer()
    const [stored, nine] = [new Uint8Array(await png(0)), new Uint8Array(await png(9))]
    const deflated = (await deflatePng(stored, 9))!
    expect(deflated.length).toBeLessThan(stored.length / 2)
    expect(chunksOf(deflated).idat.equals(chunksOf(nine).idat)).toBe(true)
    const types = chunksOf(deflated).types
    expect(types).toEqual([...new Set(chunksOf(nine).types)])
    expect(types).toContain('tRNS')
    // libspng checks every chunk's CRC: a wrong one would fail the decode.
    const decode = (bytes: Uint8Array) => sharp(bytes, { failOn: 'error' }).raw().toBuffer()
    expect((await decode(deflated)).equals(await decode(nine))).toBe(true)
    expect(inflateSync(chunksOf(deflated).idat).equals(inflateSync(chunksOf(stored).idat))).toBe(true)
  })

  test('leaves an animated PNG to the encoder, and refuses bytes that are not a PNG', async () => {
    expect(await deflatePng(new Uint8Array(await fixture('png-apng-animated-ball.png')), 9)).toBeUndefined()
    expect(deflatePng(new Uint8Array(await fixture('photo-exif-orientation-6.jpg')), 9)).rejects.toThrow(
      'expected a PNG signature',
    )
    const truncated = new Uint8Array(await fixture('bad-truncated.png'))
    expect(deflatePng(truncated, 9)).rejects.toThrow('expected whole chunks up to IEND')
  })
})

import { describe, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlockingFrameReader, encodeFrame, FrameReader } from '../../src/jobs/frames.ts'

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)

function joined(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts))
}

/** The frames' bytes in a file, read back through a descriptor as a worker reads its stdin. */
function withFile<T>(content: Uint8Array, read: (fd: number) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-frames-'))
  const path = join(dir, 'stream')
  writeFileSync(path, content)
  const fd = openSync(path, 'r')
  try {
    return read(fd)
  } finally {
    closeSync(fd)
    rmSync(dir, { recursive: true })
  }
}

describe('frames', () => {
  const first = { header: { type: 'job', id: 1 }, buffers: [bytes(300_000, 1), bytes(17, 2)] }
  const second = { header: { type: 'job', id: 2 }, buffers: [] as Uint8Array[] }
  const stream = joined([
    ...encodeFrame(first.header, first.buffers),
    ...encodeFrame(second.header, second.buffers),
  ])

  test('a blocking read gives each frame whole, then undefined at the end of the stream', () => {
    withFile(stream, (fd) => {
      const reader = new BlockingFrameReader(fd, 1 << 20)
      const one = reader.read()!
      expect(one.header).toMatchObject({ type: 'job', id: 1, sizes: [300_000, 17] })
      expect(one.buffers.map((b) => Buffer.from(b))).toEqual(first.buffers.map((b) => Buffer.from(b)))
      const two = reader.read()!
      expect(two.header).toMatchObject({ type: 'job', id: 2, sizes: [] })
      expect(two.buffers).toHaveLength(0)
      expect(reader.read()).toBeUndefined()
    })
  })

  test('frames up to keepBytes are read into one buffer, larger ones into their own', () => {
    const big = { header: { type: 'job', id: 3 }, buffers: [bytes(200_000, 3)] }
    const small = { header: { type: 'job', id: 4 }, buffers: [bytes(100_000, 4)] }
    const frames = joined([
      ...encodeFrame(big.header, big.buffers),
      ...encodeFrame(small.header, small.buffers),
    ])
    const kept = withFile(frames, (fd) => {
      const reader = new BlockingFrameReader(fd, 1 << 20)
      const three = reader.read()!.buffers[0]!
      const four = reader.read()!.buffers[0]!
      expect(Buffer.from(four)).toEqual(Buffer.from(small.buffers[0]!))
      return three.buffer === four.buffer
    })
    expect(kept).toBe(true)
    const fresh = withFile(frames, (fd) => {
      const reader = new BlockingFrameReader(fd, 150_000)
      const three = reader.read()!.buffers[0]!
      const four = reader.read()!.buffers[0]!
      // The first frame is over keepBytes: its bytes stay whole while the next is read.
      expect(Buffer.from(three)).toEqual(Buffer.from(big.buffers[0]!))
      expect(Buffer.from(four)).toEqual(Buffer.from(small.buffers[0]!))
      return three.buffer === four.buffer
    })
    expect(fresh).toBe(false)
  })

  test('a stream that ends inside a frame is an error, not a short frame', () => {
    expect(() => withFile(stream.subarray(0, 1000), (fd) => new BlockingFrameReader(fd, 0).read())).toThrow(
      /middle of a frame/,
    )
  })

  test('chunks of any size, split anywhere, give the same frames', () => {
    const reader = new FrameReader()
    const frames = []
    for (let at = 0; at < stream.byteLength; at += 4093)
      frames.push(...reader.push(stream.subarray(at, at + 4093)))
    expect(frames.map((frame) => frame.header['id'])).toEqual([1, 2])
    expect(Buffer.from(frames[0]!.buffers[0]!)).toEqual(Buffer.from(first.buffers[0]!))
  })
})

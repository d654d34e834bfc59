/**
 * ISO base media file format boxes (HEIF and the JPEG XL container are both made of them):
 * just enough walking to find a few boxes in a header. Every size is checked against the
 * bytes there are, so a damaged file ends the walk instead of reading past the end.
 */
export interface Box {
  readonly type: string
  /** The box's content, after its size and type (and a 64-bit size, if any). */
  readonly body: Uint8Array
}

const typeOf = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))

/** The boxes directly inside `bytes`, in order; stops quietly at the first one that does not fit. */
export function* boxes(bytes: Uint8Array): Generator<Box> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  while (at + 8 <= bytes.length) {
    let size = view.getUint32(at)
    let headerSize = 8
    if (size === 1) {
      if (at + 16 > bytes.length) return
      const large = view.getBigUint64(at + 8)
      size = large > BigInt(bytes.length - at) ? Infinity : Number(large)
      headerSize = 16
    } else if (size === 0) size = bytes.length - at
    if (size < headerSize || at + size > bytes.length) {
      // The last box of a file may be cut short (a truncated upload): its start is still useful.
      yield { type: typeOf(bytes, at + 4), body: bytes.subarray(at + headerSize) }
      return
    }
    yield { type: typeOf(bytes, at + 4), body: bytes.subarray(at + headerSize, at + size) }
    at += size
  }
}

export function findBox(bytes: Uint8Array, type: string): Box | undefined {
  for (const box of boxes(bytes)) if (box.type === type) return box
  return undefined
}

/** A full box's content after its version and flags. */
export function fullBoxBody(box: Box): { version: number; body: Uint8Array } {
  return { version: box.body[0] ?? 0, body: box.body.subarray(4) }
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/**
 * Reads a ZIP as the web tools write it (stored entries, sizes in the central directory), to
 * check what a person downloads: every entry's name and bytes, each checked against its CRC-32.
 */
export interface ZipEntry {
  readonly name: string
  readonly bytes: Uint8Array
}

const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_HEADER = 0x04034b50

export function readZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  let end = zip.length - 22
  while (end >= 0 && view.getUint32(end, true) !== END_OF_DIRECTORY) end--
  if (end < 0) throw new Error('not a ZIP: no end of central directory')
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const entries: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error(`bad central directory entry ${i}`)
    const method = view.getUint16(at + 10, true)
    const crc = view.getUint32(at + 16, true)
    const size = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const local = view.getUint32(at + 42, true)
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength))
    if (method !== 0) throw new Error(`${name}: compression method ${method}, expected stored (0)`)
    if (view.getUint32(local, true) !== LOCAL_HEADER) throw new Error(`${name}: bad local header`)
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
    const bytes = zip.slice(start, start + size)
    if (Bun.hash.crc32(bytes) !== crc) throw new Error(`${name}: CRC-32 does not match`)
    entries.push({ name, bytes })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/**
 * Recognises formats by their signature bytes, for two reasons: SVG must be screened before
 * any parser sees it, and a 415 is more useful when it names the format it refused.
 */
const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  signature.every((value, i) => bytes[offset + i] === value)

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

const KNOWN_SIGNATURES: readonly { name: string; test: (b: Uint8Array) => boolean }[] = [
  {
    name: 'JPEG XL',
    test: (b) => startsWith(b, [0xff, 0x0a]) || startsWith(b, [0, 0, 0, 0x0c, ...ascii('JXL ')]),
  },
  {
    name: 'HEIC',
    test: (b) => ['heic', 'heix', 'hevc', 'hevx'].some((brand) => startsWith(b, ascii(`ftyp${brand}`), 4)),
  },
  { name: 'JPEG 2000', test: (b) => startsWith(b, [0, 0, 0, 0x0c, ...ascii('jP  ')]) },
  { name: 'BMP', test: (b) => startsWith(b, ascii('BM')) && b.length > 26 },
  { name: 'ICO', test: (b) => startsWith(b, [0, 0, 1, 0]) },
  { name: 'PSD', test: (b) => startsWith(b, ascii('8BPS')) },
  { name: 'PDF', test: (b) => startsWith(b, ascii('%PDF-')) },
]

/** The name of a recognised image format, or undefined for bytes we cannot name. */
export function nameKnownFormat(bytes: Uint8Array): string | undefined {
  return KNOWN_SIGNATURES.find((s) => s.test(bytes))?.name
}

export function isGzip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x1f, 0x8b])
}

/**
 * True when the bytes look like XML or SVG text: an optional BOM, any amount of white space,
 * then '<'. No cap on the white space: libvips still recognises SVG after 100 KB of it, so a
 * shorter look would let padded SVG past the screen.
 */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0
  while (i < bytes.length && isXmlSpace(bytes[i]!)) i++
  return bytes[i] === 0x3c // '<'
}

const isXmlSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d

/**
 * 'UTF-16' or 'UTF-32' when the bytes look like XML in one of them: a byte order mark, or '<'
 * and white space interleaved with zero bytes. Neither looks like XML byte by byte.
 */
export function wideTextEncoding(bytes: Uint8Array): 'UTF-16' | 'UTF-32' | undefined {
  const utf32 = [
    [0, 0, 0xfe, 0xff],
    [0xff, 0xfe, 0, 0],
    [0, 0, 0, 0x3c],
    [0x3c, 0, 0, 0],
  ]
  if (utf32.some((signature) => startsWith(bytes, signature))) return 'UTF-32'
  if (startsWith(bytes, [0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe])) return 'UTF-16'
  // Without a mark: '<' or white space first, each ASCII character beside a zero byte.
  const markup = (i: number) => bytes[i] === 0x3c || (i < bytes.length && isXmlSpace(bytes[i]!))
  const bigEndian = bytes[0] === 0 && markup(1) && bytes[2] === 0
  const littleEndian = markup(0) && bytes[1] === 0 && bytes[3] === 0
  return bigEndian || littleEndian ? 'UTF-16' : undefined
}

/** Signatures of the formats libvips reads that KNOWN_SIGNATURES leaves to it. */
const COMMON_SIGNATURES: readonly ((b: Uint8Array) => boolean)[] = [
  (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  (b) => startsWith(b, [0x89, ...ascii('PNG')]),
  (b) => startsWith(b, ascii('GIF8')),
  (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
  (b) => startsWith(b, [0x49, 0x49, 0x2a, 0]) || startsWith(b, [0x4d, 0x4d, 0, 0x2a]),
  (b) => startsWith(b, ascii('ftyp'), 4),
]

/**
 * True when a file's first bytes (a few hundred are enough) look like an image of any format
 * the service might read: how the command line picks images out of a folder without trusting
 * their names. SVG is text that opens an <svg element near its start.
 */
export function looksLikeImage(head: Uint8Array): boolean {
  if (COMMON_SIGNATURES.some((test) => test(head)) || nameKnownFormat(head) !== undefined) return true
  return looksLikeXml(head) && new TextDecoder().decode(head).includes('<svg')
}

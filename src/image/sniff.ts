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

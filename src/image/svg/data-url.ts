/*
 * A data: URL keeps an SVG self-contained only while it holds pixels or a font. librsvg also
 * renders SVG documents from data: URLs (measured: <image>, <use href> and fill="url(...)" each
 * draw a data:image/svg+xml document, and an untyped data: URL is sniffed as SVG), and such an
 * inner document would escape this screen entirely: its external references and its cost. So
 * a data: URL passes only when it declares one of the types below and its first bytes carry
 * that type's signature.
 */

type Signature = (bytes: Uint8Array) => boolean

const startsWith = (bytes: Uint8Array, text: string, offset = 0) =>
  [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0))

const PNG: Signature = (b) => startsWith(b, '\x89PNG')
const JPEG: Signature = (b) => startsWith(b, '\xff\xd8\xff')
const GIF: Signature = (b) => startsWith(b, 'GIF8')
const WEBP: Signature = (b) => startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8)
const FONT: Signature = (b) =>
  ['wOFF', 'wOF2', 'OTTO', 'true', '\x00\x01\x00\x00'].some((s) => startsWith(b, s))

const ALLOWED_TYPES: Record<string, Signature> = {
  'image/png': PNG,
  'image/jpeg': JPEG,
  'image/jpg': JPEG,
  'image/gif': GIF,
  'image/webp': WEBP,
  'font/woff': FONT,
  'font/woff2': FONT,
  'font/ttf': FONT,
  'font/otf': FONT,
  'application/font-woff': FONT,
  'application/x-font-woff': FONT,
  'application/x-font-ttf': FONT,
}

/** Enough of a data: URL to read its media type and the first bytes of its data. */
export const DATA_URL_HEAD_CHARS = 512

const BASE64_CHARACTER = /[A-Za-z0-9+/]/

/** The first bytes of the data, percent-decoded and, for base64, decoded (white space skipped). */
function firstBytes(data: string, isBase64: boolean): Uint8Array {
  const decoded = data.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  if (!isBase64) return new Uint8Array([...decoded.slice(0, 16)].map((c) => c.charCodeAt(0) & 0xff))
  const base64 = [...decoded].filter((c) => BASE64_CHARACTER.test(c)).slice(0, 16)
  return new Uint8Array(Buffer.from(base64.join(''), 'base64'))
}

/**
 * Why the data: URL that `head` begins is refused, or undefined when it holds an allowed type.
 * `head` is the URL's first DATA_URL_HEAD_CHARS characters, starting at "data:".
 */
export function dataUrlProblem(head: string): string | undefined {
  const comma = head.indexOf(',')
  if (comma === -1) return 'a data: URL without a media type and data'
  const [type = '', ...parameters] = head.slice('data:'.length, comma).split(';')
  const mediaType = type.trim().toLowerCase()
  const signature = ALLOWED_TYPES[mediaType]
  if (signature === undefined)
    return `a data: URL of type ${JSON.stringify(mediaType.slice(0, 40))}, not a PNG, JPEG, GIF, WebP or font`
  const isBase64 = parameters.some((parameter) => parameter.trim().toLowerCase() === 'base64')
  if (!signature(firstBytes(head.slice(comma + 1), isBase64)))
    return `a data: URL whose bytes are not the ${mediaType} it declares`
  return undefined
}

/*
 * Turns an upload into the text the SVG screen reads, or undefined when the bytes are not XML.
 * The screen is only as good as its agreement with libxml2 about which characters the document
 * holds, so whatever could make the two disagree (compression, a declared encoding) is
 * settled here, before any rule looks at the text.
 */
import { gunzipSync } from 'node:zlib'
import { AppError } from '../../errors/app-error.ts'
import { isGzip, looksLikeXml, wideTextEncoding } from '../sniff.ts'

/** Decompresses .svgz, refusing one that inflates beyond `maxBytes`. */
function inflate(bytes: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes })
  } catch {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `expected a compressed SVG of at most ${maxBytes} bytes when inflated`,
    )
  }
}

/**
 * Encodings in which every byte below 0x80 is that ASCII character, so the markup reads the
 * same whatever the other bytes mean. libxml2 switches to the declared encoding; in UTF-7 or
 * EBCDIC, `+ADw-image` is `<image`, which a screen reading bytes as ASCII would never see.
 * (The libxml2 inside sharp has no converter for those and fails; another build may not.)
 */
const ASCII_COMPATIBLE_ENCODING = /^(?:utf-?8|(?:us-)?ascii|iso[-_]?8859-(?:[1-9]|1[0-6])|latin-?1)$/i

function declaredEncoding(text: string): string | undefined {
  if (!/^<\?xml[ \t\r\n]/.test(text)) return undefined
  const end = text.indexOf('?>')
  if (end === -1) return undefined
  return /[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"']*)\1/.exec(text.slice(0, end))?.[2]
}

function refuseEncoding(received: string): never {
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `expected an SVG encoded as UTF-8 (or ASCII, ISO-8859-1 to -16), received one ${received}`,
  )
}

/** The document as text (a UTF-8 BOM dropped), or undefined for bytes that are not XML. */
export function svgText(bytes: Uint8Array, maxBytes: number): string | undefined {
  const xml = isGzip(bytes) ? inflate(bytes, maxBytes) : bytes
  // libvips does not read these as SVG today; refusing them keeps the screen from relying on it.
  const wide = wideTextEncoding(xml)
  if (wide) refuseEncoding(`encoded as ${wide}`)
  if (!looksLikeXml(xml)) return undefined
  const text = new TextDecoder().decode(xml)
  const encoding = declaredEncoding(text)
  if (encoding !== undefined && !ASCII_COMPATIBLE_ENCODING.test(encoding.trim()))
    refuseEncoding(`declared as ${JSON.stringify(encoding.slice(0, 40))}`)
  return text
}

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i))

function fromCodePoint(value: number): string {
  if (value > 0 && value < 128) return ASCII[value]!
  return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : '\uFFFD'
}

function digitValue(c: number, hex: boolean): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  const letter = c | 0x20
  return hex && letter >= 0x61 && letter <= 0x66 ? letter - 0x61 + 10 : -1
}

/**
 * Replaces character references and the five predefined entities in one left-to-right pass,
 * as an XML parser does (so `&amp;#x75;` stays the text `&#x75;`). The `;` after a character
 * reference is optional here although XML requires it: decoding more than the parser would can
 * only make the screen stricter.
 */
export function decodeXmlReferences(text: string): string {
  let amp = text.indexOf('&')
  if (amp === -1) return text
  const parts: string[] = []
  let copied = 0
  for (; amp !== -1; amp = text.indexOf('&', amp + 1)) {
    let value: string | undefined
    let end = amp + 1
    if (text[end] === '#') {
      const hex = (text.charCodeAt(end + 1) | 0x20) === 0x78 // 'x' or 'X'
      const digits = end + (hex ? 2 : 1)
      let codePoint = 0
      for (end = digits; end < text.length; end++) {
        const digit = digitValue(text.charCodeAt(end), hex)
        if (digit < 0) break
        codePoint = Math.min(codePoint * (hex ? 16 : 10) + digit, 0x110000)
      }
      if (end > digits) value = fromCodePoint(codePoint)
      if (text[end] === ';') end++
    } else {
      const semicolon = text.indexOf(';', end)
      if (semicolon !== -1 && semicolon - end <= 4)
        value = PREDEFINED_ENTITIES[text.slice(end, semicolon).toLowerCase()]
      end = semicolon + 1
    }
    if (value === undefined) continue
    if (amp > copied) parts.push(text.slice(copied, amp))
    parts.push(value)
    copied = end
    amp = end - 1
  }
  parts.push(text.slice(copied))
  return parts.join('')
}

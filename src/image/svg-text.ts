/*
 * Turns an upload into the text the SVG screen reads, or undefined when the bytes are not XML.
 * The screen is only as good as its agreement with libxml2 about which characters the document
 * holds, so whatever could make the two disagree (compression, a declared encoding) is
 * settled here, before any rule looks at the text.
 */
import { gunzipSync } from 'node:zlib'
import { AppError } from '../errors/app-error.ts'
import { isGzip, looksLikeXml } from './sniff.ts'

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

/** The document as text (a UTF-8 BOM dropped), or undefined for bytes that are not XML. */
export function svgText(bytes: Uint8Array, maxBytes: number): string | undefined {
  const xml = isGzip(bytes) ? inflate(bytes, maxBytes) : bytes
  if (!looksLikeXml(xml)) return undefined
  return new TextDecoder().decode(xml)
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

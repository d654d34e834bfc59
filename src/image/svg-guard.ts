import { gunzipSync } from 'node:zlib'
import { AppError } from '../errors/app-error.ts'
import { isGzip, looksLikeXml } from './sniff.ts'

/**
 * SVG is a document format that can point at other documents. librsvg does not fetch from
 * the network when given a buffer, but we do not rely on one library's defaults: an SVG that
 * references anything outside itself (URLs, files, XInclude, entities) is refused before any
 * parser sees it. Same-document (#id) and data: references are allowed.
 */
const ENTITY_DECLARATION = /<!ENTITY/i
const XINCLUDE = /XInclude|<\s*[\w-]+:include[\s>]/i
const CSS_IMPORT = /@import/i
const REFERENCE_ATTRIBUTE = /(?:^|[\s"'])(?:[\w-]+:)?(?:href|src)\s*=\s*(["'])(.*?)\1/gis
const CSS_URL = /url\(\s*(["']?)\s*(.*?)\s*\1\s*\)/gis
const INTERNAL_DTD = /<!DOCTYPE[^>[]*\[/i

function decodeCharacterReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
}

function isInternalReference(reference: string): boolean {
  const trimmed = reference.trim()
  return trimmed === '' || trimmed.startsWith('#') || /^data:/i.test(trimmed)
}

function refuse(what: string): never {
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `expected a self-contained SVG, received one with ${what}; only same-document (#id) and data: references are allowed`,
  )
}

function findExternalReference(text: string): string | undefined {
  for (const pattern of [REFERENCE_ATTRIBUTE, CSS_URL]) {
    for (const match of text.matchAll(pattern)) {
      const reference = match[2] ?? ''
      if (!isInternalReference(reference)) return reference.trim().slice(0, 80)
    }
  }
  return undefined
}

/** Decompresses .svgz, refusing one that inflates beyond `maxBytes`. */
function svgText(bytes: Uint8Array, maxBytes: number): string | undefined {
  if (isGzip(bytes)) {
    let inflated: Uint8Array
    try {
      inflated = gunzipSync(bytes, { maxOutputLength: maxBytes })
    } catch {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `expected a compressed SVG of at most ${maxBytes} bytes when inflated`,
      )
    }
    return looksLikeXml(inflated) ? new TextDecoder().decode(inflated) : undefined
  }
  return looksLikeXml(bytes) ? new TextDecoder().decode(bytes) : undefined
}

/** Throws UNSUPPORTED_MEDIA_TYPE for XML/SVG input that reaches outside itself. */
export function assertSelfContainedSvg(bytes: Uint8Array, maxBytes: number): void {
  const raw = svgText(bytes, maxBytes)
  if (raw === undefined) return
  const text = decodeCharacterReferences(raw)
  if (ENTITY_DECLARATION.test(text) || INTERNAL_DTD.test(text))
    refuse('entity declarations (an internal DTD)')
  if (XINCLUDE.test(text)) refuse('an XInclude')
  if (CSS_IMPORT.test(text)) refuse('a CSS @import')
  const external = findExternalReference(text)
  if (external !== undefined) refuse(`an external reference (${JSON.stringify(external)})`)
}

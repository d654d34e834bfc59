import { sharp } from '../sharp.ts'

/*
 * metadata=copyright keeps who made an image and on what terms, and nothing else: EXIF IFD0
 * Copyright and Artist, and the XMP dc:rights, dc:creator, xmpRights:* and cc:license fields,
 * written back as a new XMP packet. IPTC is dropped: sharp cannot write it selectively.
 */

export interface CopyrightFields {
  readonly exif: { Copyright?: string; Artist?: string }
  /** A rebuilt XMP packet, when the input's had any of the fields. */
  readonly xmp?: string
}

const EXIF_TAGS: Readonly<Record<number, 'Copyright' | 'Artist'>> = { 0x8298: 'Copyright', 0x013b: 'Artist' }
const ASCII = 2

/** IFD0's Copyright and Artist from an EXIF block (`Exif\0\0` and a TIFF header). */
export function exifCopyright(exif: Uint8Array): CopyrightFields['exif'] {
  const start = exif.subarray(0, 6).every((b, i) => b === 'Exif\0\0'.charCodeAt(i)) ? 6 : 0
  const view = new DataView(exif.buffer, exif.byteOffset + start, exif.byteLength - start)
  if (view.byteLength < 8) return {}
  const little = view.getUint16(0) === 0x4949
  const u16 = (at: number) => view.getUint16(at, little)
  const u32 = (at: number) => view.getUint32(at, little)
  const found: CopyrightFields['exif'] = {}
  const ifd = u32(4)
  if (ifd + 2 > view.byteLength) return {}
  for (let i = 0, entries = u16(ifd); i < entries && ifd + 14 + i * 12 <= view.byteLength; i++) {
    const entry = ifd + 2 + i * 12
    const name = EXIF_TAGS[u16(entry)]
    const count = u32(entry + 4)
    if (!name || u16(entry + 2) !== ASCII) continue
    const at = count <= 4 ? entry + 8 : u32(entry + 8)
    if (at + count > view.byteLength) continue
    const bytes = new Uint8Array(view.buffer, view.byteOffset + at, count)
    // A copyright may hold the photographer's and the editor's, separated by a NUL.
    const parts = new TextDecoder()
      .decode(bytes)
      .split('\0')
      .filter((part) => part.trim() !== '')
    if (parts.length > 0) found[name] = parts.join(' / ')
  }
  return found
}

const NAMESPACES = {
  dc: 'http://purl.org/dc/elements/1.1/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  cc: 'http://creativecommons.org/ns#',
} as const
type Prefix = keyof typeof NAMESPACES
/** The fields kept, by namespace; `*` is every field of it. */
const KEPT: Readonly<Record<Prefix, readonly string[] | '*'>> = {
  dc: ['rights', 'creator'],
  xmpRights: '*',
  cc: ['license'],
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

/** The kept fields of an XMP packet, as elements under their usual prefixes. */
export function xmpCopyright(xmp: string): string[] {
  const elements: string[] = []
  for (const [prefix, uri] of Object.entries(NAMESPACES) as [Prefix, string][]) {
    // The packet may bind the namespace to any prefix.
    for (const [, own] of xmp.matchAll(
      new RegExp(`xmlns:([\\w.-]+)="${uri.replace(/[.#/]/g, '\\$&')}"`, 'g'),
    )) {
      const name = KEPT[prefix] === '*' ? '[\\w.-]+' : (KEPT[prefix] as readonly string[]).join('|')
      for (const [, local, body] of xmp.matchAll(
        new RegExp(`<${own}:(${name})(?:\\s[^>]*)?>([\\s\\S]*?)</${own}:\\1>`, 'g'),
      ))
        elements.push(`<${prefix}:${local}>${body}</${prefix}:${local}>`)
      for (const [, local, attributes] of xmp.matchAll(new RegExp(`<${own}:(${name})(\\s[^>]*?)/>`, 'g')))
        elements.push(`<${prefix}:${local}${attributes}/>`)
      for (const [, local, value] of xmp.matchAll(new RegExp(`\\s${own}:(${name})="([^"]*)"`, 'g')))
        if (!/^(xmlns)$/.test(local!))
          elements.push(`<${prefix}:${local}>${escapeXml(value!)}</${prefix}:${local}>`)
    }
  }
  return elements
}

function xmpPacket(elements: readonly string[]): string {
  const declarations = Object.entries(NAMESPACES)
    .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
    .join(' ')
  return `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ${declarations}>${elements.join('')}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
}

/** The copyright fields of the input's EXIF and XMP, read from its header. */
export async function copyrightOf(input: Uint8Array): Promise<CopyrightFields> {
  const { exif, xmp } = await sharp(input).metadata()
  const elements = xmp ? xmpCopyright(new TextDecoder().decode(xmp)) : []
  return { exif: exif ? exifCopyright(exif) : {}, ...(elements.length ? { xmp: xmpPacket(elements) } : {}) }
}

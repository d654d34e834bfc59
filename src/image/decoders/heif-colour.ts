import { boxes, findBox, fullBoxBody, viewOf, type Box } from './bmff.ts'

/**
 * The colour description of a HEIF's primary image, read from the container's `colr`
 * property: an ICC profile (iPhones attach Display P3), or nclx code points (H.273) that
 * colour-profiles.ts maps to a profile. libheif hands back RGB pixels without it, so this is
 * what keeps a P3 photo's colours right once sharp converts them to sRGB.
 */
export type HeifColour =
  | { readonly kind: 'icc'; readonly icc: Uint8Array }
  | { readonly kind: 'nclx'; readonly primaries: number; readonly transfer: number }

interface ItemProperties {
  /** ipco children in order; ipma indexes are 1-based into this. */
  readonly properties: readonly Box[]
  readonly associations: ReadonlyMap<number, readonly number[]>
}

function primaryItem(meta: Uint8Array): number | undefined {
  const pitm = findBox(meta, 'pitm')
  if (!pitm) return undefined
  const { version, body } = fullBoxBody(pitm)
  if (body.length < (version === 0 ? 2 : 4)) return undefined
  return version === 0 ? viewOf(body).getUint16(0) : viewOf(body).getUint32(0)
}

function readAssociations(ipma: Box): Map<number, number[]> {
  const { version, body } = fullBoxBody(ipma)
  const wideIndex = (ipma.body[3]! & 1) === 1
  const view = viewOf(body)
  const out = new Map<number, number[]>()
  let at = 4
  const entries = body.length >= 4 ? view.getUint32(0) : 0
  for (let e = 0; e < entries && at < body.length; e++) {
    const idSize = version < 1 ? 2 : 4
    if (at + idSize + 1 > body.length) break
    const item = idSize === 2 ? view.getUint16(at) : view.getUint32(at)
    const count = body[at + idSize]!
    at += idSize + 1
    const indexes: number[] = []
    for (let i = 0; i < count && at < body.length; i++) {
      indexes.push(wideIndex ? view.getUint16(at) & 0x7fff : body[at]! & 0x7f)
      at += wideIndex ? 2 : 1
    }
    out.set(item, indexes)
  }
  return out
}

function itemProperties(meta: Uint8Array): ItemProperties | undefined {
  const iprp = findBox(meta, 'iprp')
  const ipco = iprp && findBox(iprp.body, 'ipco')
  if (!iprp || !ipco) return undefined
  const associations = new Map<number, number[]>()
  for (const box of boxes(iprp.body)) {
    if (box.type !== 'ipma') continue
    for (const [item, indexes] of readAssociations(box)) associations.set(item, indexes)
  }
  return { properties: [...boxes(ipco.body)], associations }
}

/** Items a grid or overlay is built from (its `dimg` references), in order. */
function derivedFrom(meta: Uint8Array, item: number): number[] {
  const iref = findBox(meta, 'iref')
  if (!iref) return []
  const { version, body } = fullBoxBody(iref)
  const idSize = version === 0 ? 2 : 4
  const read = (b: Uint8Array, at: number) =>
    idSize === 2 ? viewOf(b).getUint16(at) : viewOf(b).getUint32(at)
  for (const reference of boxes(body)) {
    const b = reference.body
    if (reference.type !== 'dimg' || b.length < idSize + 2 || read(b, 0) !== item) continue
    const count = viewOf(b).getUint16(idSize)
    const ids: number[] = []
    for (let i = 0; i < count && idSize + 2 + (i + 1) * idSize <= b.length; i++)
      ids.push(read(b, idSize + 2 + i * idSize))
    return ids
  }
  return []
}

function parseColr(box: Box): HeifColour | undefined {
  const kind = String.fromCharCode(...box.body.subarray(0, 4))
  if ((kind === 'prof' || kind === 'rICC') && box.body.length > 4)
    return { kind: 'icc', icc: box.body.slice(4) }
  if (kind === 'nclx' && box.body.length >= 8) {
    const view = viewOf(box.body)
    return { kind: 'nclx', primaries: view.getUint16(4), transfer: view.getUint16(6) }
  }
  return undefined
}

function colourOfItem(found: ItemProperties, item: number): HeifColour | undefined {
  for (const index of found.associations.get(item) ?? []) {
    const property = found.properties[index - 1]
    if (property?.type === 'colr') {
      const colour = parseColr(property)
      if (colour) return colour
    }
  }
  return undefined
}

/** The primary image's colour; for a grid without its own, that of its first tile. */
export function readHeifColour(file: Uint8Array): HeifColour | undefined {
  const meta = findBox(file, 'meta')
  if (!meta) return undefined
  const body = fullBoxBody(meta).body
  const primary = primaryItem(body)
  const found = itemProperties(body)
  if (primary === undefined || !found) return undefined
  const own = colourOfItem(found, primary)
  if (own) return own
  const tile = derivedFrom(body, primary)[0]
  return tile === undefined ? undefined : colourOfItem(found, tile)
}

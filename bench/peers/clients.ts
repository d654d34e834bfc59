/*
 * One request to each server, reduced to the encoded bytes: imgapi gets the photo as the body of
 * POST /api/compress, IPX reads it from its own disk by name. Each answer is checked to be 200
 * and of the format asked for, so that a fast error can never pass for a fast encode.
 */
import { imgapiQuery, ipxPath, type PeerFormat, type Row } from './rows.ts'

export interface Photo {
  readonly name: string
  /** Read once, before anything is timed. */
  readonly bytes: Uint8Array<ArrayBuffer>
}

export type Server = 'imgapi' | 'ipx'
export const SERVERS: readonly Server[] = ['imgapi', 'ipx']

/** One encode of one photo by one server, for one row. */
export type Encode = (photo: Photo) => Promise<Uint8Array>

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to))

/** Each format's signature: JPEG's SOI marker, WebP's RIFF form type, AVIF's ftyp brand. */
const SIGNATURE: Record<PeerFormat, (bytes: Uint8Array) => boolean> = {
  jpeg: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  webp: (bytes) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP',
  avif: (bytes) => ascii(bytes, 4, 8) === 'ftyp' && /avi[fs]/.test(ascii(bytes, 8, 12)),
}

async function encodedBytes(response: Response, format: PeerFormat, what: string): Promise<Uint8Array> {
  const body = new Uint8Array(await response.arrayBuffer())
  if (response.status !== 200) {
    throw new Error(`${what}: HTTP ${response.status} ${new TextDecoder().decode(body.subarray(0, 200))}`)
  }
  if (!SIGNATURE[format](body)) {
    throw new Error(
      `${what}: expected ${format}, received ${body.length} bytes starting ${JSON.stringify(ascii(body, 0, 12))}`,
    )
  }
  return body
}

export function imgapiEncode(baseUrl: string, row: Row): Encode {
  const url = `${baseUrl}/api/compress?${imgapiQuery(row)}`
  return async (photo) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: photo.bytes,
    })
    return encodedBytes(response, row.format, `imgapi ${photo.name}`)
  }
}

export function ipxEncode(baseUrl: string, row: Row): Encode {
  return async (photo) => {
    const response = await fetch(`${baseUrl}${ipxPath(row, photo.name)}`)
    return encodedBytes(response, row.format, `IPX ${photo.name}`)
  }
}

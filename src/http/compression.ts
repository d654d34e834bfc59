import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { qualityValues } from '../quality-values.ts'

/**
 * Text responses (docs pages, scripts, styles) compressed for the client, by Accept-Encoding.
 * The API's images are already compressed and are never compressed again.
 */
export type Encoding = 'br' | 'gzip'

/** The best encoding the client accepts (brotli, then gzip), or undefined for identity. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | undefined {
  const accepted = new Map<string, number>()
  for (const { value, q } of qualityValues(acceptEncoding ?? '')) accepted.set(value, q)
  const quality = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0
  if (quality('br') > 0) return 'br'
  if (quality('gzip') > 0) return 'gzip'
  return undefined
}

export function compress(body: Uint8Array, encoding: Encoding): Uint8Array {
  if (encoding === 'gzip') return gzipSync(body, { level: 9 })
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  })
}

/**
 * Keeps each compressed form of a body that does not change while the process runs (built
 * assets, rendered pages), so it is compressed once, not on every request.
 */
export class CompressedCache {
  readonly #entries = new Map<string, Uint8Array>()

  get(key: string, body: Uint8Array, encoding: Encoding | undefined): Uint8Array<ArrayBuffer> {
    if (!encoding) return body as Uint8Array<ArrayBuffer>
    const cacheKey = `${encoding}:${key}`
    let compressed = this.#entries.get(cacheKey)
    if (!compressed) {
      compressed = compress(body, encoding)
      this.#entries.set(cacheKey, compressed)
    }
    return compressed as Uint8Array<ArrayBuffer>
  }
}

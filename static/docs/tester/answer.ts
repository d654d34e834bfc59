import { filenameFrom } from './content-disposition.ts'
import type { Exchange } from './request.ts'

export type Envelope = Record<string, unknown>

/** An answer read once, for the result to show: its JSON, and the image in it, if any. */
export interface Answer {
  readonly exchange: Exchange
  readonly json?: Envelope
  readonly image?: AnswerImage
}

export interface AnswerImage {
  readonly blob: Blob
  readonly filename: string
  readonly format: string
  readonly originalFormat: string
  /** The original's bytes as the server counted them: all there is of an image fetched from a url. */
  readonly originalSize: number
  readonly width?: number
  readonly height?: number
}

const isJson = (type: string) => /^application\/(problem\+)?json/.test(type)

/**
 * The image inside a JSON envelope's data: URL, decoded here: fetching a data: URL counts as a
 * connection, which the page's Content-Security-Policy (connect-src 'self') rightly refuses.
 */
function blobFromDataUrl(url: string): Blob {
  const comma = url.indexOf(',')
  const type = /^data:([^;,]+)/.exec(url)?.[1] ?? 'application/octet-stream'
  const bytes = Uint8Array.from(atob(url.slice(comma + 1)), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}

const positive = (value: unknown) => (Number(value) > 0 ? Number(value) : undefined)

/** The facts of an image answer, from the envelope or else the X-* headers. */
function imageOf(exchange: Exchange, json: Envelope | undefined): AnswerImage {
  const header = (name: string) => exchange.response.headers.get(name)
  return {
    blob: json ? blobFromDataUrl(String(json.data)) : exchange.body,
    filename:
      (json?.filename as string | undefined) ?? filenameFrom(header('content-disposition')) ?? 'image',
    format: String(json?.outputFormat ?? header('x-output-format') ?? ''),
    originalFormat: String(json?.originalFormat ?? header('x-original-format') ?? ''),
    originalSize: Number(json?.originalSize ?? header('x-original-size') ?? 0),
    width: positive(json?.width ?? header('x-image-width')),
    height: positive(json?.height ?? header('x-image-height')),
  }
}

export async function readAnswer(exchange: Exchange): Promise<Answer> {
  const { response, request } = exchange
  const type = response.headers.get('content-type') ?? ''
  const json = isJson(type) ? (JSON.parse(await exchange.body.text()) as Envelope) : undefined
  const isImage = type.startsWith('image/') || typeof json?.data === 'string'
  return {
    exchange,
    json,
    // A POST's image: the one sent, or the one the server fetched from the url.
    image: response.ok && request.method === 'POST' && isImage ? imageOf(exchange, json) : undefined,
  }
}

import { authorization } from './key.ts'
import type { VariantOptions } from './variants.ts'

/** An answer of POST /api/compress: the status, its headers and its body. */
export interface Answer {
  readonly status: number
  header(name: string): string | null
  readonly body: Blob
}

export interface Sending {
  readonly answer: Promise<Answer>
  abort(): void
}

export interface SendHooks {
  /** Bytes of the image sent so far, of `total`. */
  onUpload?(sent: number, total: number): void
  /** The whole image has reached the server; what remains is its work. */
  onUploaded?(): void
}

/** Thrown when a request is cancelled, so callers can tell it from a network failure. */
export class Aborted extends Error {}

/**
 * The options an image named by its address is sent with: `url` first, then the options, in the
 * query string with no body, as the "copy as curl" command sends it.
 */
export function sourceQuery(url: string, query: URLSearchParams): URLSearchParams {
  return new URLSearchParams([['url', url], ...query])
}

/**
 * POST /api/compress with the image as the raw body and the options in the query string, exactly
 * as the "copy as curl" command sends it; with a watermark, the two files as multipart fields
 * (`file` and `overlay`), the options still in the query string. XMLHttpRequest rather than
 * fetch: only it reports the upload's progress.
 */
export function postImage(
  image: Blob,
  query: URLSearchParams,
  language: string,
  hooks: SendHooks = {},
  overlay?: Blob,
): Sending {
  if (!overlay) return post(query, image, language, hooks)
  const body = new FormData()
  body.append('file', image)
  body.append('overlay', overlay)
  return post(query, body, language, hooks, image.size + overlay.size)
}

/**
 * POST /api/compress for several outputs of one image: the image uploaded once (with its
 * watermark, if any) beside the form field `variants`, the options they share in the query
 * string, and the answer asked for as JSON, each output a data URI in it.
 */
export function postVariants(
  image: Blob,
  shared: URLSearchParams,
  variants: readonly VariantOptions[],
  language: string,
  hooks: SendHooks = {},
  overlay?: Blob,
): Sending {
  const body = new FormData()
  body.append('file', image)
  if (overlay) body.append('overlay', overlay)
  body.append('variants', JSON.stringify(variants))
  return post(shared, body, language, hooks, image.size + (overlay?.size ?? 0), JSON_ANSWER)
}

/** Several outputs of an image the server fetches from `url`: `variants` in the query string too. */
export function postUrlVariants(
  url: string,
  shared: URLSearchParams,
  variants: readonly VariantOptions[],
  language: string,
): Sending {
  const query = sourceQuery(url, shared)
  query.set('variants', JSON.stringify(variants))
  return post(query, undefined, language, {}, 0, JSON_ANSWER)
}

const JSON_ANSWER = 'application/json'

/**
 * POST /api/compress for an image the server fetches from `url` itself: nothing is uploaded, so
 * the page never connects to the image's origin (its Content-Security-Policy would not let it).
 */
export function postUrl(url: string, query: URLSearchParams, language: string): Sending {
  return post(sourceQuery(url, query), undefined, language, {})
}

function post(
  query: URLSearchParams,
  body: Blob | FormData | undefined,
  language: string,
  hooks: SendHooks,
  total = body instanceof Blob ? body.size : 0,
  accept?: string,
): Sending {
  const xhr = new XMLHttpRequest()
  const answer = new Promise<Answer>((resolve, reject) => {
    const suffix = query.toString()
    xhr.open('POST', `/api/compress${suffix ? `?${suffix}` : ''}`)
    xhr.responseType = 'blob'
    if (body instanceof Blob) xhr.setRequestHeader('Content-Type', 'application/octet-stream')
    // Error titles come back in the reader's language.
    xhr.setRequestHeader('Accept-Language', language)
    if (accept) xhr.setRequestHeader('Accept', accept)
    for (const [name, value] of Object.entries(authorization())) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => hooks.onUpload?.(event.loaded, event.total || total)
    xhr.upload.onload = () => hooks.onUploaded?.()
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name),
        body: xhr.response as Blob,
      })
    xhr.onerror = () => reject(new Error('network'))
    xhr.onabort = () => reject(new Aborted('aborted'))
    xhr.send(body ?? null)
  })
  return { answer, abort: () => xhr.abort() }
}

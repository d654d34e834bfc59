import { authorization } from './key.ts'

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
  const xhr = new XMLHttpRequest()
  const answer = new Promise<Answer>((resolve, reject) => {
    const suffix = query.toString()
    xhr.open('POST', `/api/compress${suffix ? `?${suffix}` : ''}`)
    xhr.responseType = 'blob'
    let body: Blob | FormData = image
    if (overlay) {
      body = new FormData()
      body.append('file', image)
      body.append('overlay', overlay)
    } else xhr.setRequestHeader('Content-Type', 'application/octet-stream')
    // Error titles come back in the reader's language.
    xhr.setRequestHeader('Accept-Language', language)
    for (const [name, value] of Object.entries(authorization())) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) =>
      hooks.onUpload?.(event.loaded, event.total || image.size + (overlay?.size ?? 0))
    xhr.upload.onload = () => hooks.onUploaded?.()
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name),
        body: xhr.response as Blob,
      })
    xhr.onerror = () => reject(new Error('network'))
    xhr.onabort = () => reject(new Aborted('aborted'))
    xhr.send(body)
  })
  return { answer, abort: () => xhr.abort() }
}

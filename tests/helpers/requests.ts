import type { Problem } from '../../src/http/problem.ts'

/** A multipart body with the image in field `file` and options as text fields. */
export function multipart(
  bytes: Uint8Array,
  filename = 'upload.bin',
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData()
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], filename))
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  return form
}

export function rawBody(bytes: Uint8Array, contentType = 'application/octet-stream'): RequestInit {
  return { method: 'POST', body: bytes as Uint8Array<ArrayBuffer>, headers: { 'content-type': contentType } }
}

export const post = (body: FormData): RequestInit => ({ method: 'POST', body })

/** Asserts the RFC 9457 shape and returns the problem for further checks. */
export async function problemOf(response: Response) {
  const body = (await response.json()) as Problem
  return {
    ...body,
    contentType: response.headers.get('content-type'),
    httpStatus: response.status,
    requestIdHeader: response.headers.get('x-request-id'),
  }
}

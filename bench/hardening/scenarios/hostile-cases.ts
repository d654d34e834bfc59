/* The hostile requests of the hostile-http scenario, as they were reported. */
import { requestHead } from '../requests.ts'

export interface Case {
  readonly name: string
  /** A whole small request (sent with node:net), or parts written as fast as possible. */
  readonly request: string | readonly (Uint8Array | string)[]
  readonly expected: string
  expect(status: number | undefined): boolean
}

const BAD_HOSTS = ['a%zz', 'a:99999', '[::1', 'a b', 'bad\u00e9host.example', '']
const METHODS = [
  ['GET', '/api/health', ''],
  ['POST', '/api/compress', 'abc'],
  ['OPTIONS', '/api/compress', ''],
] as const
/** Over the application's 16 KiB limit on request heads, under Bun's own 64 KiB. */
const HEAD_FILLER_BYTES = 30_000
/** 568,680 parts of 59 bytes: 33.6 MB, just under the multipart body limit (32 MiB + 64 KiB). */
const EMPTY_FIELDS = 568_680
const BOUNDARY = 'XXXXXXXXX'

const is = (status: number) => ({ expected: String(status), expect: (s: number | undefined) => s === status })
const any4xx = {
  expected: 'a 4xx',
  expect: (s: number | undefined) => s !== undefined && s >= 400 && s < 500,
}

export function hostileHeads(): Case[] {
  const cases: Case[] = []
  for (const host of BAD_HOSTS) {
    for (const [method, path, body] of METHODS) {
      const request = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
      cases.push({ name: `${method} ${path} Host ${JSON.stringify(host)}`, request, ...is(400) })
    }
  }
  for (const [method, path, body] of METHODS) {
    const length = body ? `Content-Length: ${body.length}\r\n` : ''
    const request = `${method} ${path} HTTP/1.0\r\n${length}\r\n${body}`
    cases.push({ name: `HTTP/1.0 ${method} ${path} without Host`, request, ...is(400) })
  }
  const filler = 'x'.repeat(HEAD_FILLER_BYTES)
  cases.push(
    {
      name: '30 KB header',
      request: requestHead('GET', '/api/health', { 'X-Filler': filler, Connection: 'close' }),
      ...is(431),
    },
    {
      name: '30 KB request line',
      request: requestHead('GET', `/api/health?q=${filler}`, { Connection: 'close' }),
      ...is(431),
    },
  )
  return cases
}

function multipartHead(bytes: number): string {
  return requestHead('POST', '/api/compress', {
    'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
    'Content-Length': bytes,
    Connection: 'close',
  })
}

export function hugeMultipart(): Case {
  const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n`
  const body = Buffer.from(part.repeat(EMPTY_FIELDS) + `--${BOUNDARY}--\r\n`, 'latin1')
  return {
    name: `${EMPTY_FIELDS} empty fields (${body.byteLength} B)`,
    request: [multipartHead(body.byteLength), body],
    ...any4xx,
  }
}

export function longFieldMultipart(): Case {
  const field = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="quality"\r\n\r\n${'9'.repeat(1_000_000)}\r\n`
  const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n`
  const body = Buffer.from(`${field}${file}--${BOUNDARY}--\r\n`, 'latin1')
  return { name: '1 MB field', request: [multipartHead(body.byteLength), body], ...is(400) }
}

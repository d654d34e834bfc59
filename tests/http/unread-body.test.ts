import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Socket } from 'node:net'
import { unreadBodyHeaders } from '../../src/http/unread-body.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { rawExchange } from '../helpers/raw-http.ts'

const MAX = 1_000_000

/** Writes `bytes` of body in 64 KiB pieces, waiting for the socket to take each. */
async function writeBody(socket: Socket, bytes: number) {
  const piece = Buffer.alloc(64 * 1024)
  for (let sent = 0; sent < bytes && !socket.destroyed; sent += piece.length) {
    const slice = piece.subarray(0, Math.min(piece.length, bytes - sent))
    if (!socket.write(slice)) await new Promise((resolve) => socket.once('drain', resolve))
  }
}

describe('a body left unread by an early answer', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ maxUploadBytes: MAX }, { socket: true })
  })
  afterAll(() => api.stop())

  test('of a declared, bounded length is drained: the 413 arrives, and the connection serves the next request', async () => {
    const declared = 2 * MAX
    const exchange = await rawExchange(
      api.url,
      async (socket) => {
        socket.write(`POST /api/compress HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${declared}\r\n\r\n`)
        await writeBody(socket, declared)
        socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
      },
      10_000,
    )
    expect(exchange.responses.map((r) => r.status)).toEqual([413, 200])
    expect(exchange.responses[0]!.headers.get('connection')).not.toBe('close')
    expect(JSON.parse(exchange.responses[0]!.body).code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('declared far beyond any upload, or chunked, is not read: the answer says Connection: close', async () => {
    const huge = await rawExchange(api.url, (socket) => {
      socket.write(`POST /api/compress HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${100 * MAX}\r\n\r\n`)
    })
    expect(huge.responses[0]!.status).toBe(413)
    expect(huge.responses[0]!.headers.get('connection')).toBe('close')
    expect(huge.closedByServer).toBe(true)

    const chunked = await rawExchange(api.url, async (socket) => {
      socket.write('POST /api/compress HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n')
      const piece = Buffer.alloc(256 * 1024)
      for (let sent = 0; sent <= MAX + piece.length && !socket.destroyed; sent += piece.length)
        socket.write(`${piece.length.toString(16)}\r\n${piece.toString('latin1')}\r\n`)
    })
    expect(chunked.responses[0]!.status).toBe(413)
    expect(chunked.responses[0]!.headers.get('connection')).toBe('close')
  })

  test('the rule itself', () => {
    const post = (headers: Record<string, string>, body: BodyInit | null = 'x') =>
      new Request('http://localhost/api/compress', { method: 'POST', headers, body })
    expect(unreadBodyHeaders(post({ 'content-length': String(4 * MAX) }), MAX)).toEqual({})
    expect(unreadBodyHeaders(post({ 'content-length': String(4 * MAX + 1) }), MAX)).toEqual({
      connection: 'close',
    })
    expect(unreadBodyHeaders(post({ 'content-length': 'nonsense' }), MAX)).toEqual({ connection: 'close' })
    expect(unreadBodyHeaders(new Request('http://localhost/api/health'), MAX)).toEqual({})
  })
})

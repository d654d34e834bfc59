import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { MAGIC, decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, rawBody } from '../helpers/requests.ts'

describe('POST /api/compress: forms, headers and the JSON envelope', () => {
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    api = await startApi()
    photo = await fixture('photo-exif-orientation-6.jpg')
  })
  afterAll(() => api.stop())

  test('takes multipart with options as form fields and returns the image with result headers', async () => {
    const response = await api.fetch(
      '/api/compress',
      post(multipart(photo, 'holiday.jpg', { format: 'webp', quality: '70' })),
    )
    expect(response.status).toBe(200)
    const body = new Uint8Array(await response.arrayBuffer())
    const h = response.headers
    expect(h.get('content-type')).toBe('image/webp')
    expect(MAGIC.webp!(body)).toBe(true)
    expect(h.get('content-disposition')).toBe('inline; filename="holiday.webp"')
    expect(Number(h.get('x-original-size'))).toBe(photo.length)
    expect(Number(h.get('x-compressed-size'))).toBe(body.length)
    expect(h.get('x-compression-ratio')).toBe((body.length / photo.length).toFixed(4))
    expect(h.get('x-original-format')).toBe('jpeg')
    expect(h.get('x-output-format')).toBe('webp')
    expect(h.get('x-quality')).toBe('70')
    expect(h.get('x-result')).toBe('compressed')
    expect(h.get('server-timing')).toMatch(
      /read;dur=[\d.]+, probe;dur=[\d.]+, queue;dur=[\d.]+, process;dur=[\d.]+, total;dur=/,
    )
    const decoded = await decode(body)
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', 600, 450])
    expect([Number(h.get('x-image-width')), Number(h.get('x-image-height'))]).toEqual([600, 450])
  })

  test('takes a raw body with options in the query string', async () => {
    const response = await api.fetch('/api/compress?format=avif&width=300', rawBody(photo, 'image/jpeg'))
    expect(response.status).toBe(200)
    const decoded = await decode(await response.arrayBuffer())
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['heif', 300, 225])
    expect(response.headers.get('content-type')).toBe('image/avif')
    expect(response.headers.get('content-disposition')).toBe('inline; filename="image.avif"')
  })

  test('detects the format from the bytes, whatever the name or declared type says', async () => {
    const response = await api.fetch(
      '/api/compress',
      rawBody(await fixture('gif-animated-10frames.gif'), 'image/png'),
    )
    expect(response.headers.get('x-original-format')).toBe('gif')
    const named = await api.fetch('/api/compress', post(multipart(photo, 'lies.png')))
    expect(named.headers.get('x-original-format')).toBe('jpeg')
    expect(named.headers.get('content-type')).toBe('image/jpeg')
    expect(named.headers.get('content-disposition')).toBe('inline; filename="lies.jpg"')
  })

  test('names the raw upload from its Content-Disposition, encoding non-ASCII names per RFC 8187', async () => {
    const init = rawBody(photo)
    init.headers = {
      ...init.headers,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('été/../ünïcode.jpg')}`,
    }
    const response = await api.fetch('/api/compress?format=png&width=50', init)
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="_n_code.png"; filename*=UTF-8''${encodeURIComponent('ünïcode.png')}`,
    )
  })

  test('accepts options from the query string with a multipart body, and jpg as jpeg', async () => {
    const response = await api.fetch('/api/compress?format=jpg&width=120', post(multipart(photo, 'a.jpg')))
    expect(response.headers.get('x-output-format')).toBe('jpeg')
    expect((await decode(await response.arrayBuffer())).width).toBe(120)
  })

  test('answers with a JSON envelope carrying the same facts when asked for JSON', async () => {
    const init = {
      ...post(multipart(photo, 'holiday.jpg', { format: 'png', width: '64' })),
      headers: { accept: 'application/json' },
    }
    const response = await api.fetch('/api/compress', init)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    const body = await response.json()
    expect(body).toMatchObject({
      result: 'compressed',
      filename: 'holiday.png',
      mime: 'image/png',
      originalSize: photo.length,
      originalFormat: 'jpeg',
      outputFormat: 'png',
      width: 64,
      height: 48,
      frames: 1,
    })
    const bytes = Buffer.from(body.data.replace(/^data:image\/png;base64,/, ''), 'base64')
    expect(bytes.length).toBe(body.compressedSize)
    expect(body.compressionRatio).toBe(Number((bytes.length / photo.length).toFixed(4)))
    expect((await decode(bytes)).width).toBe(64)
    expect(response.headers.get('x-compressed-size')).toBe(String(bytes.length))
  })

  test('says which given options do not apply to the output format', async () => {
    const response = await api.fetch(
      '/api/compress?format=gif&quality=50&chromaSubsampling=4:4:4',
      rawBody(photo),
    )
    expect(response.headers.get('x-ignored-options')).toBe('quality,chromaSubsampling')
    expect(response.headers.get('x-quality')).toBeNull()
  })

  test('says when metadata=keep cannot apply because the format carries no metadata', async () => {
    const response = await api.fetch('/api/compress?format=gif&metadata=keep', rawBody(photo))
    expect(response.headers.get('x-ignored-options')).toBe('metadata')
  })

  test('reports no quality for lossless output', async () => {
    const response = await api.fetch('/api/compress?format=webp&lossless=true&width=100', rawBody(photo))
    expect(response.headers.get('x-quality')).toBeNull()
    const again = await api.fetch('/api/compress?format=webp&lossless=true&width=100', rawBody(photo))
    expect((await again.arrayBuffer()).byteLength).toBe(Number(response.headers.get('x-compressed-size')))
  })

  test('converts SVG input, which cannot be written back, to PNG because it has alpha', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><circle cx="40" cy="40" r="30" fill="#c30"/></svg>',
    )
    const response = await api.fetch('/api/compress', rawBody(svg, 'image/svg+xml'))
    expect(response.status).toBe(200)
    expect(response.headers.get('x-original-format')).toBe('svg')
    const decoded = await decode(await response.arrayBuffer())
    expect([decoded.format, decoded.width, decoded.height, decoded.metadata.hasAlpha]).toEqual([
      'png',
      120,
      80,
      true,
    ])
  })

  test('flattens transparency onto the background colour for JPEG', async () => {
    const input = await fixture('webp-lossy-alpha.webp')
    const { data, info } = await sharp(input).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    let transparent = -1
    for (let i = 0; i < info.width * info.height; i++) if (data[i * 4 + 3] === 0) transparent = i
    expect(transparent).toBeGreaterThanOrEqual(0)
    const response = await api.fetch(
      '/api/compress?format=jpeg&quality=95&background=%23ff0000',
      rawBody(input),
    )
    const out = await sharp(new Uint8Array(await response.arrayBuffer()))
      .raw()
      .toBuffer()
    const [r, g, b] = [out[transparent * 3]!, out[transparent * 3 + 1]!, out[transparent * 3 + 2]!]
    expect(r).toBeGreaterThan(230)
    expect(Math.max(g, b)).toBeLessThan(30)
  })
})

import { describe, expect, test } from 'bun:test'
import { apiForSuite } from '../helpers/compress.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf, rawBody } from '../helpers/requests.ts'
import { readZip } from '../helpers/zip.ts'
import type { Api } from '../helpers/api.ts'

type Variant = Record<string, unknown>

const query = (variants: Variant[], extra = '') =>
  `/api/compress?variants=${encodeURIComponent(JSON.stringify(variants))}${extra}`

/** The same request alone: the shared options, and the variant's over them, in the query. */
async function alone(api: Api, input: Uint8Array, shared: Record<string, string>, variant: Variant) {
  const params = new URLSearchParams(shared)
  for (const [name, value] of Object.entries(variant)) params.set(name, String(value))
  const response = await api.fetch(`/api/compress?${params}`, rawBody(input))
  expect(response.status).toBe(200)
  return new Uint8Array(await response.arrayBuffer())
}

interface Manifest {
  originalFormat: string
  originalSize: number
  variants: ({ index: number; filename: string; width: number; height: number } & Record<string, unknown>)[]
}

async function zipOf(response: Response) {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/zip')
  const entries = readZip(new Uint8Array(await response.arrayBuffer()))
  const manifest = JSON.parse(
    new TextDecoder().decode(entries.find((e) => e.name === 'manifest.json')!.bytes),
  )
  return { entries: entries.filter((e) => e.name !== 'manifest.json'), manifest: manifest as Manifest }
}

describe('POST /api/compress with variants: several outputs from one upload', () => {
  const api = apiForSuite()
  const srcset: Variant[] = [
    { width: 120, format: 'avif' },
    { width: 120, format: 'webp' },
    { width: 120, format: 'jpeg' },
    { width: 240, format: 'avif' },
    { width: 240, format: 'webp' },
    { width: 240, format: 'jpeg' },
    { width: 200, format: 'png' },
    { width: 200, format: 'tiff' },
  ]

  test('answers a ZIP of one entry per variant and a manifest, each byte for byte the request alone', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const form = multipart(input, 'holiday photo.jpg', { variants: JSON.stringify(srcset), rotate: '90' })
    const { entries, manifest } = await zipOf(await api().fetch('/api/compress', post(form)))
    expect(entries.map((e) => e.name)).toEqual([
      'holiday photo-120.avif',
      'holiday photo-120.webp',
      'holiday photo-120.jpg',
      'holiday photo-240.avif',
      'holiday photo-240.webp',
      'holiday photo-240.jpg',
      'holiday photo-200.png',
      'holiday photo-200.tif',
    ])
    expect(manifest.originalFormat).toBe('jpeg')
    expect(manifest.originalSize).toBe(input.length)
    for (const [index, variant] of srcset.entries()) {
      const entry = entries[index]!
      const decoded = await decode(entry.bytes)
      expect(decoded.format).toBe(variant.format === 'avif' ? 'heif' : (variant.format as string))
      expect(decoded.width).toBe(variant.width as number)
      expect(manifest.variants[index]).toMatchObject({
        index,
        filename: entry.name,
        width: decoded.width,
        height: decoded.height,
        compressedSize: entry.bytes.length,
        outputFormat: variant.format,
      })
      expect(manifest.variants[index]).not.toHaveProperty('data')
      const single = await alone(api(), input, { rotate: '90' }, variant)
      expect([entry.name, entry.bytes.length, Buffer.from(entry.bytes).equals(Buffer.from(single))]).toEqual([
        entry.name,
        single.length,
        true,
      ])
    }
  }, 60_000)

  test('answers JSON with Accept: application/json, the same images as data URIs', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const variants = srcset.slice(0, 3)
    const zip = await zipOf(await api().fetch(query(variants), rawBody(input)))
    const response = await api().fetch(query(variants), {
      ...rawBody(input),
      headers: { accept: 'application/json' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-variants')).toBe('3')
    expect(response.headers.get('x-variants-failed')).toBe('0')
    expect(response.headers.get('vary')).toContain('Accept')
    const body = (await response.json()) as Manifest
    expect(body.variants.map((v) => v.filename)).toEqual([
      'image-120.avif',
      'image-120.webp',
      'image-120.jpg',
    ])
    for (const [index, entry] of body.variants.entries()) {
      const data = String(entry.data)
      const bytes = Buffer.from(data.slice(data.indexOf(',') + 1), 'base64')
      expect(bytes.equals(Buffer.from(zip.entries[index]!.bytes))).toBe(true)
      expect(data.startsWith(`data:${entry.mime};base64,`)).toBe(true)
    }
  })

  test('takes variants as a native array in a JSON body, beside its url', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const origin = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(input) })
    const fetching = apiForUrls()
    try {
      const response = await fetching.fetch('/api/compress', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${origin.port}/photos/pier.jpg`,
          quality: 60,
          variants: [{ width: 100 }, { width: 50, format: 'webp' }],
        }),
      })
      expect(response.status).toBe(200)
      const body = (await response.json()) as Manifest & { sourceUrl: string }
      expect(body.sourceUrl).toBe(`http://127.0.0.1:${origin.port}/photos/pier.jpg`)
      expect(body.variants.map((v) => [v.filename, v.width, v.quality])).toEqual([
        ['pier-100.jpg', 100, 60],
        ['pier-50.webp', 50, 60],
      ])
    } finally {
      origin.stop(true)
      await fetching.stop()
    }
  })

  test('the request’s own options are every variant’s defaults; a variant’s own win', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const response = await api().fetch(query([{}, { quality: 40 }], '&format=webp&width=80&quality=70'), {
      ...rawBody(input),
      headers: { accept: 'application/json' },
    })
    const body = (await response.json()) as Manifest
    expect(body.variants.map((v) => [v.outputFormat, v.width, v.quality])).toEqual([
      ['webp', 80, 70],
      ['webp', 80, 40],
    ])
  })

  test('names entries of one width and format apart, without a collision', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const variants = [
      { width: 90, format: 'webp', quality: 80 },
      { width: 90, format: 'webp', quality: 40 },
      { width: 90, height: 90, fit: 'cover', format: 'webp', quality: 40 },
      { width: 90, format: 'webp', quality: 20 },
    ]
    const { entries } = await zipOf(await api().fetch(query(variants), rawBody(input)))
    expect(entries.map((e) => e.name)).toEqual([
      'image-90.webp',
      'image-90x67.webp',
      'image-90x90.webp',
      'image-90x67-2.webp',
    ])
  })

  test('format=auto in a variant picks among its formats, or every web format, whatever Accept says', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const variants = [
      { width: 100, format: 'auto', formats: 'jpeg' },
      { width: 100, format: 'auto', formats: 'webp' },
      { width: 100, format: 'auto' },
    ]
    const response = await api().fetch(query(variants), {
      ...rawBody(input),
      headers: { accept: 'application/json' },
    })
    const body = (await response.json()) as Manifest
    expect(body.variants.map((v) => v.outputFormat)).toEqual([
      'jpeg',
      'webp',
      expect.stringMatching(/^(avif|webp|jpeg)$/),
    ])
  })

  test('a variant that fails is listed with its problem while the others are answered', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const variants = [
      { width: 100, format: 'webp' },
      { format: 'avif', maxBytes: 50, minQuality: 90 },
    ]
    const zip = await api().fetch(query(variants), rawBody(input))
    expect(zip.headers.get('x-variants-failed')).toBe('1')
    const { entries, manifest } = await zipOf(zip)
    expect(entries.map((e) => e.name)).toEqual(['image-100.webp'])
    expect(manifest.variants[1]).toMatchObject({
      index: 1,
      problem: { code: 'TARGET_UNREACHABLE', status: 422, type: '/docs/errors#TARGET_UNREACHABLE' },
    })
    expect((manifest.variants[1]!.problem as { smallestBytes: number }).smallestBytes).toBeGreaterThan(50)
  })

  test('when every variant fails, the first one’s problem is the answer', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const variants = [
      { format: 'avif', maxBytes: 50, minQuality: 90 },
      { format: 'webp', maxBytes: 40, minQuality: 90 },
    ]
    const problem = await problemOf(await api().fetch(query(variants), rawBody(input)))
    expect([problem.httpStatus, problem.code]).toEqual([422, 'TARGET_UNREACHABLE'])
  })

  test('an image type alone in Accept is 406 NOT_ACCEPTABLE, before any work', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const response = await api().fetch(query([{ format: 'webp' }]), {
      ...rawBody(input),
      headers: { accept: 'image/webp' },
    })
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([406, 'NOT_ACCEPTABLE'])
    expect(problem.contentType).toBe('application/problem+json')
  })

  test('*/* and application/zip are a ZIP; JSON wins only when asked for at least as much', async () => {
    const input = await fixture('photo-exif-orientation-6.jpg')
    const type = async (accept: string) =>
      (await api().fetch(query([{ width: 20 }]), { ...rawBody(input), headers: { accept } })).headers.get(
        'content-type',
      )
    expect(await type('*/*')).toBe('application/zip')
    expect(await type('image/webp,*/*;q=0.8')).toBe('application/zip')
    expect(await type('application/zip, application/json;q=0.5')).toBe('application/zip')
    expect(await type('application/json')).toContain('application/json')
  })

  describe('refuses a bad list with 400, every bad entry named by its place', () => {
    const refused = async (variants: string, form = false) => {
      const input = await fixture('photo-exif-orientation-6.jpg')
      const response = form
        ? await api().fetch('/api/compress', post(multipart(input, 'a.jpg', { variants })))
        : await api().fetch(`/api/compress?variants=${encodeURIComponent(variants)}`, rawBody(input))
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
      return problem.errors!
    }

    test('a shared option, an unknown one, a value out of range', async () => {
      const errors = await refused(JSON.stringify([{ crop: '0,0,10,10' }, { widht: 10 }, { quality: 900 }]))
      expect(errors.map((e) => e.name)).toEqual([
        'variants[0].crop',
        'variants[1].widht',
        'variants[2].quality',
      ])
      expect(errors[0]!.reason).toContain('give it once, outside variants')
      expect(errors[1]!.reason).toContain('did you mean width?')
    })

    test('text that is not JSON, not an array, an empty array, an entry that is not an object', async () => {
      expect((await refused('[{width:1}'))[0]!.reason).toContain('not JSON')
      expect((await refused('{"width":1}'))[0]!.reason).toContain('a JSON array')
      expect((await refused('[]'))[0]!.reason).toContain('at least one')
      expect((await refused('[3]'))[0]!.name).toBe('variants[0]')
      // A JSON string where a number goes is refused, as in a JSON body.
      expect((await refused('[{"width":"100"}]'))[0]!.name).toBe('variants[0].width')
    })

    test('more entries than IMGAPI_MAX_VARIANTS, a field longer than 8 KiB', async () => {
      const many = JSON.stringify(Array.from({ length: 21 }, () => ({ width: 10 })))
      expect((await refused(many))[0]!.reason).toContain(
        'at most 20 variants (IMGAPI_MAX_VARIANTS), received 21',
      )
      const long = JSON.stringify([{ format: 'webp', formats: 'x'.repeat(9000) }])
      expect((await refused(long, true))[0]!.reason).toContain('at most 8192 bytes')
    })

    test('a variant the plan refuses is named by its place', async () => {
      const errors = await refused(JSON.stringify([{ width: 10 }, { format: 'webp', effort: 9 }]))
      expect(errors.map((e) => e.name)).toEqual(['variants[1].effort'])
    })
  })

  test('refuses outputs that add up to more than twice IMGAPI_MAX_OUTPUT_PIXELS with 422', async () => {
    const small = await startSmall()
    try {
      const input = await fixture('photo-exif-orientation-6.jpg')
      // 450 x 600 each: 270,000 pixels; three of them exceed 2 x 400,000.
      const problem = await problemOf(await small.fetch(query([{}, {}, {}]), rawBody(input)))
      expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
      expect(problem.detail).toContain('810000')
      expect((await small.fetch(query([{}, {}]), rawBody(input))).status).toBe(200)
    } finally {
      await small.stop()
    }
  })
})

async function startSmall() {
  const { startApi } = await import('../helpers/api.ts')
  return startApi({ maxOutputPixels: 400_000 })
}

function apiForUrls() {
  // A server that may fetch from loopback, for the JSON body's url.
  const started = import('../helpers/api.ts').then(({ startApi }) => startApi({ urlAllow: '127.0.0.1/32' }))
  return {
    fetch: async (path: string, init: RequestInit) => (await started).fetch(path, init),
    stop: async () => (await started).stop(),
  }
}

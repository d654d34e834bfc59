import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ERROR_CODES } from '../../src/errors/catalogue.ts'
import { OPTION_NAMES } from '../../src/options/schema.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'

describe('OpenAPI document and reference', () => {
  let api: Api
  let spec: Record<string, any>
  beforeAll(async () => {
    api = await startApi()
    spec = await (await api.fetch('/swagger/json')).json()
  })
  afterAll(() => api.stop())

  test('validates as OpenAPI 3 with a standard validator', async () => {
    const validated = await SwaggerParser.validate(structuredClone(spec) as never)
    expect((validated as { openapi: string }).openapi).toStartWith('3.')
  })

  test('lists exactly the three API paths with their methods', () => {
    const api = Object.keys(spec.paths).filter((p) => p.startsWith('/api'))
    expect(api.sort()).toEqual(['/api/compress', '/api/formats', '/api/health'])
    expect(Object.keys(spec.paths['/api/compress'])).toEqual(['post'])
    expect(Object.keys(spec.paths['/api/health'])).toEqual(['get'])
    expect(Object.keys(spec.paths['/api/formats'])).toEqual(['get'])
  })

  test('documents every option as a query parameter and a multipart field, with descriptions', () => {
    const operation = spec.paths['/api/compress'].post
    const parameters = operation.parameters.map((p: { name: string }) => p.name)
    expect(parameters).toEqual(OPTION_NAMES)
    for (const parameter of operation.parameters) expect(parameter.description.length).toBeGreaterThan(10)
    const form = operation.requestBody.content['multipart/form-data'].schema
    // The file or a url, never both: neither is required by the schema, the server says which.
    expect(form.required).toBeUndefined()
    expect(Object.keys(form.properties)).toEqual(['file', 'overlay', ...OPTION_NAMES])
    // A JSON body names its image by url, with the options as members in their JSON types.
    const body = operation.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['url'])
    expect(Object.keys(body.properties)).toEqual(OPTION_NAMES)
    expect(body.properties.width.type).toBe('integer')
    // Any other Content-Type is the raw image, as curl --data-binary sends it.
    expect(Object.keys(operation.requestBody.content)).toEqual([
      'multipart/form-data',
      'application/json',
      '*/*',
    ])
  })

  test('publishes the limits in force: width and height capped by the output limit, the upload limit on the file', async () => {
    const small = await startApi({ maxOutputDimension: 4000, maxUploadBytes: 123_456 })
    const doc = await (await small.fetch('/swagger/json')).json()
    const operation = doc.paths['/api/compress'].post
    const width = operation.parameters.find((p: { name: string }) => p.name === 'width')
    expect(width.schema.maximum).toBe(4000)
    const form = operation.requestBody.content['multipart/form-data'].schema
    expect(form.properties.height.maximum).toBe(4000)
    expect(form.properties.file.maxLength).toBe(123_456)
    expect(operation.requestBody.content['*/*'].schema.maxLength).toBe(123_456)
    await small.stop()
  })

  test('says that the file may not be empty, as the server answers an empty one with 400 MISSING_FILE', async () => {
    const body = spec.paths['/api/compress'].post.requestBody
    const file = body.content['multipart/form-data'].schema.properties.file
    expect([file.minLength, body.content['*/*'].schema.minLength]).toEqual([1, 1])
    expect(file.description).toContain('400 MISSING_FILE')
    expect(body.description).toContain('400 MISSING_FILE')
    const form = new FormData()
    form.append('file', new File([], 'empty.png'))
    const answer = await api.fetch('/api/compress', { method: 'POST', body: form })
    expect([answer.status, ((await answer.json()) as { code: string }).code]).toEqual([400, 'MISSING_FILE'])
  })

  test('marks as required exactly the fields every JSON envelope carries', async () => {
    // The envelope of one image; that of a variants request is the other branch (below).
    const schema =
      spec.paths['/api/compress'].post.responses['200'].content['application/json'].schema.oneOf[0]
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const gif = await fixture('gif-animated-10frames.gif')
    const answers = [
      await api.fetch('/api/compress?format=webp', {
        ...rawBody(photo),
        headers: { accept: 'application/json' },
      }),
      await api.fetch('/api/compress?format=jpeg&quality=auto&width=64', {
        ...rawBody(photo),
        headers: { accept: 'application/json' },
      }),
      await api.fetch('/api/compress?format=gif', {
        ...rawBody(gif),
        headers: { accept: 'application/json' },
      }),
    ]
    const envelopes = await Promise.all(answers.map((answer) => answer.json() as Promise<object>))
    const always = Object.keys(schema.properties).filter((field) =>
      envelopes.every((envelope) => field in envelope),
    )
    expect([...schema.required].sort()).toEqual(always.sort())
    // And what is not required is sometimes absent: GIF has no quality, only a search measures.
    expect(envelopes.some((envelope) => !('quality' in envelope))).toBe(true)
    expect(envelopes.some((envelope) => 'similarity' in envelope)).toBe(true)
  })

  test('marks as required exactly the fields every variants envelope and each kind of entry carry', async () => {
    const schema =
      spec.paths['/api/compress'].post.responses['200'].content['application/json'].schema.oneOf[1]
    const [answered, failed] = schema.properties.variants.items.oneOf
    const variants = [
      { width: 64, format: 'webp', lossless: true },
      { width: 64, format: 'jpeg', quality: 'auto' },
      { width: 64, format: 'avif', maxBytes: 10, minQuality: 90 },
    ]
    const response = await api.fetch(
      `/api/compress?variants=${encodeURIComponent(JSON.stringify(variants))}`,
      {
        ...rawBody(await fixture('photo-exif-orientation-6.jpg')),
        headers: { accept: 'application/json' },
      },
    )
    const envelope = (await response.json()) as { variants: Record<string, unknown>[] }
    const present = (entries: object[], properties: object) =>
      Object.keys(properties)
        .filter((field) => entries.every((entry) => field in entry))
        .sort()
    expect([...schema.required].sort()).toEqual(present([envelope], schema.properties))
    const images = envelope.variants.filter((entry) => !('problem' in entry))
    const problems = envelope.variants.filter((entry) => 'problem' in entry)
    expect([images.length, problems.length]).toEqual([2, 1])
    // `data` is in the JSON answer, not in the ZIP's manifest.json: not required of an entry.
    expect([...answered.required, 'data'].sort()).toEqual(present(images, answered.properties))
    expect([...failed.required].sort()).toEqual(present(problems, failed.properties))
  })

  test('names a server and a contact, so generated clients and linters have them', () => {
    expect(spec.servers).toEqual([{ url: '/', description: 'This server' }])
    expect(spec.info.contact.name).toBe('imgapi')
  })

  test('documents progressive with no single default, naming the per-format ones (JPEG progressive)', () => {
    const operation = spec.paths['/api/compress'].post
    const parameter = operation.parameters.find((p: { name: string }) => p.name === 'progressive')
    const field = operation.requestBody.content['multipart/form-data'].schema.properties.progressive
    for (const schema of [parameter.schema, field]) expect(schema.default).toBeUndefined()
    expect(parameter.description).toContain('JPEG is progressive')
    expect(parameter.description).toContain('PNG and GIF are not interlaced')
  })

  test('documents the image response headers and every error response as problem+json', () => {
    const responses = spec.paths['/api/compress'].post.responses
    expect(responses['200'].headers['X-Result'].schema).toEqual({
      type: 'string',
      enum: ['compressed', 'optimised', 'original'],
    })
    expect(responses['200'].headers['X-Ignored-Options']).toMatchObject({
      style: 'simple',
      schema: { type: 'array', items: { type: 'string' } },
    })
    for (const status of ['400', '408', '413', '415', '422', '431', '500', '503']) {
      expect(responses[status].content['application/problem+json'].schema.$ref).toBe(
        '#/components/schemas/Problem',
      )
    }
    expect(Object.keys(responses['422'].content['application/problem+json'].examples)).toEqual([
      'CORRUPT_IMAGE',
      'IMAGE_TOO_LARGE',
      'CROP_OUTSIDE_IMAGE',
      'TARGET_UNREACHABLE',
      'PROCESSING_TIMEOUT',
      'CODEC_CRASHED',
    ])
    expect(responses['503'].headers['Retry-After']).toBeDefined()
  })

  test('documents 500 for every endpoint and 405 for none, since no documented operation can answer it', () => {
    for (const [path, methods] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/api')) continue
      for (const operation of Object.values(methods)) {
        expect(operation.responses['405'], path).toBeUndefined()
        expect(operation.responses['500'], path).toBeDefined()
      }
    }
  })

  test('documents the ETag, Cache-Control and If-None-Match / 304 of the formats list', () => {
    const operation = spec.paths['/api/formats'].get
    expect(Object.keys(operation.responses['200'].headers)).toEqual([
      'X-Request-Id',
      'ETag',
      'Cache-Control',
      'Vary',
    ])
    expect(operation.responses['304'].headers.ETag).toBeDefined()
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'header:If-None-Match',
    ])
  })

  test('serves the reference page with its script from this server, not a CDN', async () => {
    const page = await (await api.fetch('/swagger')).text()
    const scripts = [...page.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1])
    expect(scripts).toEqual(['/swagger-assets/scalar.js'])
    expect(page).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./)
    const script = await api.fetch('/swagger-assets/scalar.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('javascript')
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000)
  })

  test('keeps the problem type links working: /docs/errors leads to the reference, one anchor per code', async () => {
    const moved = await api.fetch('/docs/errors', { redirect: 'manual' })
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/docs/reference'])
    const page = await (await api.fetch('/docs/reference')).text()
    for (const code of ERROR_CODES) expect(page).toContain(`id="${code}"`)
  })
})

import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { OPTION_NAMES } from '../../src/options/schema.ts'
import { startApi, type Api } from '../helpers/api.ts'

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
    expect(form.required).toEqual(['file'])
    expect(Object.keys(form.properties)).toEqual(['file', ...OPTION_NAMES])
    expect(Object.keys(operation.requestBody.content)).toEqual([
      'multipart/form-data',
      'image/*',
      'application/octet-stream',
    ])
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
    expect(Object.keys(responses['200'].headers)).toContain('X-Result')
    for (const status of ['400', '405', '413', '415', '422', '500', '503']) {
      expect(responses[status].content['application/problem+json'].schema.$ref).toBe(
        '#/components/schemas/Problem',
      )
    }
    expect(Object.keys(responses['422'].content['application/problem+json'].examples)).toEqual([
      'CORRUPT_IMAGE',
      'IMAGE_TOO_LARGE',
    ])
    expect(responses['503'].headers['Retry-After']).toBeDefined()
  })

  test('documents error responses for every endpoint', () => {
    for (const [path, methods] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/api')) continue
      for (const operation of Object.values(methods)) {
        expect(operation.responses['405'], path).toBeDefined()
        expect(operation.responses['500'], path).toBeDefined()
      }
    }
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

  test('serves the error reference that problem types link to, one anchor per code', async () => {
    const page = await (await api.fetch('/docs/errors')).text()
    for (const code of ['CORRUPT_IMAGE', 'OVERLOADED', 'INVALID_PARAMETER'])
      expect(page).toContain(`id="${code}"`)
  })
})

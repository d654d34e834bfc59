import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { OpenAPIV3 } from 'openapi-types'
import { AppError } from '../../src/errors/app-error.ts'
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/errors/catalogue.ts'
import { toProblem } from '../../src/http/problem.ts'
import { PROBLEM_SCHEMA } from '../../src/openapi/errors.ts'
import { FORMATS_SCHEMA, HEALTH_SCHEMA, RESULT_SCHEMA, variantsSchema } from '../../src/openapi/responses.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'
import { shapeErrors } from '../helpers/schema-shape.ts'
import { freePort } from '../helpers/services.ts'

/**
 * What the builders send (the health body, the formats list, the problem, the compress
 * envelopes), checked against the schemas the OpenAPI document and the docs reference show: a
 * field added to one and not the other fails here, whichever side moved.
 */
const VARIANTS_SCHEMA = variantsSchema(PROBLEM_SCHEMA as OpenAPIV3.SchemaObject)
const json = { accept: 'application/json' }
let api: Api
let png: Uint8Array
let jpeg: Uint8Array

beforeAll(async () => {
  // A Redis nobody listens on: health then carries its dependencies, with Redis down.
  api = await startApi({ redisUrl: `redis://127.0.0.1:${freePort()}`, redisTimeoutMs: 200 })
  png = await fixture('png-tiny-1x1-prophoto-icc.png')
  jpeg = await fixture('photo-exif-orientation-6.jpg')
})
afterAll(async () => {
  api.context?.access.close()
  await api.stop()
})

const bodyOf = async (path: string, init?: RequestInit) => {
  const response = await api.fetch(path, init)
  return { status: response.status, body: (await response.json()) as unknown }
}

describe('every JSON body the API builds matches its OpenAPI schema', () => {
  test('the health body, with its dependencies', async () => {
    const { body } = await bodyOf('/api/health')
    expect(body).toHaveProperty('dependencies.redis')
    expect(shapeErrors(body, HEALTH_SCHEMA)).toEqual([])
  })

  test('the formats list and its limits', async () => {
    const { status, body } = await bodyOf('/api/formats')
    expect(status).toBe(200)
    expect(shapeErrors(body, FORMATS_SCHEMA)).toEqual([])
  })

  test('the problem of every error code, with every optional field', () => {
    const request = new Request('http://localhost/api/compress?quality=abc')
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const error = new AppError(code, 'expected this, received that', {
        errors: [{ name: 'quality', reason: 'expected an integer, received "abc"' }],
        omittedErrors: 2,
        smallestBytes: 1234,
        originStatus: 404,
      })
      expect(shapeErrors(toProblem(error, 'req-1', request), PROBLEM_SCHEMA)).toEqual([])
    }
  })

  test('the problems the app answers: an unknown path and invalid options', async () => {
    const notFound = await bodyOf('/api/nothing-here')
    const invalid = await bodyOf('/api/compress?quality=abc&width=-1', rawBody(png))
    expect([notFound.status, invalid.status]).toEqual([404, 400])
    expect(shapeErrors(notFound.body, PROBLEM_SCHEMA)).toEqual([])
    expect(shapeErrors(invalid.body, PROBLEM_SCHEMA)).toEqual([])
  })

  test('the JSON envelope of one image, and with quality=auto its similarity', async () => {
    const plain = await bodyOf('/api/compress?format=webp', { ...rawBody(png), headers: json })
    const auto = await bodyOf('/api/compress?format=webp&quality=auto&width=64', {
      ...rawBody(jpeg),
      headers: json,
    })
    expect([plain.status, auto.status]).toEqual([200, 200])
    expect(auto.body).toHaveProperty('similarity')
    expect(shapeErrors(plain.body, RESULT_SCHEMA)).toEqual([])
    expect(shapeErrors(auto.body, RESULT_SCHEMA)).toEqual([])
  })

  test('the variants envelope, with an answered and a failed entry', async () => {
    const variants = encodeURIComponent(JSON.stringify([{ format: 'png' }, { format: 'jpeg', maxBytes: 1 }]))
    const { status, body } = await bodyOf(`/api/compress?variants=${variants}`, {
      ...rawBody(png),
      headers: json,
    })
    expect(status).toBe(200)
    expect(body).toHaveProperty('variants.1.problem')
    expect(shapeErrors(body, VARIANTS_SCHEMA)).toEqual([])
  })

  test('a field a builder adds without its schema is a mismatch, as is one the schema requires and it drops', async () => {
    const { body } = await bodyOf('/api/health')
    const { version: _, ...dropped } = body as Record<string, unknown>
    expect(shapeErrors({ ...(body as object), grown: 1 }, HEALTH_SCHEMA)).toEqual([
      '$.grown: not in the schema',
    ])
    expect(shapeErrors(dropped, HEALTH_SCHEMA)).toEqual(['$.version: required, missing'])
  })
})

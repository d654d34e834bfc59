import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { problemOf } from '../helpers/requests.ts'

const encode = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>
const SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'

async function expectProblem(api: Api, body: Uint8Array<ArrayBuffer>, status: number, code: string) {
  const response = await api.fetch('/api/compress', { method: 'POST', body })
  const problem = await problemOf(response)
  expect({ status: response.status, code: problem.code }).toEqual({ status, code })
  expect(problem.contentType).toStartWith('application/problem+json')
  return problem
}

describe('POST /api/compress: hostile SVG', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  test('refuses an external image hidden behind 5000 spaces with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const body = encode(`${' '.repeat(5000)}${SVG_OPEN}<image href="http://example.com/a.png"/></svg>`)
    const problem = await expectProblem(api, body, 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(problem.detail).toContain('http://example.com/a.png')
  })
})

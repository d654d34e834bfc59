import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { nestedUses } from '../helpers/hostile-svg.ts'
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

  test('refuses nested <use> fan-out (billion laughs) with 422 IMAGE_TOO_LARGE before rendering it', async () => {
    const started = performance.now()
    const problem = await expectProblem(
      api,
      encode(`${SVG_OPEN}${nestedUses(10, 10)}</svg>`),
      422,
      'IMAGE_TOO_LARGE',
    )
    // Rendering it took librsvg 2.5-3 s; refusing it takes no rendering at all.
    expect(performance.now() - started).toBeLessThan(2000)
    expect(problem.detail).toMatch(
      /expand to at most 100000 drawn elements, received one that expands to \d+$/,
    )
  })

  test('still converts modest <use> fan-out', async () => {
    const response = await api.fetch('/api/compress', {
      method: 'POST',
      body: encode(`${SVG_OPEN}${nestedUses(3, 10)}</svg>`),
    })
    expect(response.status).toBe(200)
  })

  test('refuses an external image hidden behind 5000 spaces with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const body = encode(`${' '.repeat(5000)}${SVG_OPEN}<image href="http://example.com/a.png"/></svg>`)
    const problem = await expectProblem(api, body, 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(problem.detail).toContain('http://example.com/a.png')
  })

  const inner = btoa('<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.com/a.png"/></svg>')
  test.each([
    [
      'a CSS-escaped url()',
      '<rect width="9" height="9" style="fill:\\75rl(http://example.com/a.svg#g)"/>',
      '',
    ],
    ['an external DTD', '<rect width="9" height="9"/>', '<!DOCTYPE svg SYSTEM "http://example.com/svg.dtd">'],
    [
      'an SVG document in a data: URL',
      `<image width="9" height="9" href="data:image/svg+xml;base64,${inner}"/>`,
      '',
    ],
  ])('refuses %s with 415 UNSUPPORTED_MEDIA_TYPE', async (_, body, head) => {
    await expectProblem(api, encode(`${head}${SVG_OPEN}${body}</svg>`), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('refuses a UTF-16 SVG with 415 UNSUPPORTED_MEDIA_TYPE, naming the encoding', async () => {
    const utf16 = new Uint8Array(
      Buffer.from(`\ufeff${SVG_OPEN}<rect width="9" height="9"/></svg>`, 'utf16le'),
    )
    const problem = await expectProblem(api, utf16, 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(problem.detail).toContain('UTF-16')
  })

  test('refuses a marker drawn at every vertex of a long path with 422 IMAGE_TOO_LARGE', async () => {
    // 10000 vertices x a 100-element marker took librsvg 8.3 s for 60 KB.
    const marker = `<marker id="m">${'<rect width="1" height="1"/>'.repeat(100)}</marker>`
    const path = `<path d="M0 0${' L1 1'.repeat(10_000)}" marker-mid="url(#m)"/>`
    await expectProblem(api, encode(`${SVG_OPEN}${marker}${path}</svg>`), 422, 'IMAGE_TOO_LARGE')
  })
})

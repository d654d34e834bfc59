import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TOOL_PAGES } from '../../src/tools/pages.ts'
import { startApi, type Api } from '../helpers/api.ts'

const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)![1]!)

describe('the web tools', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  test('serve / and a page per tool under the strict policy the docs have', async () => {
    for (const { path } of Object.values(TOOL_PAGES)) {
      const response = await api.fetch(path)
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'")
    }
  })

  test('a page ships only its language and its own strings, and the options from the schema', async () => {
    const html = await (await api.fetch('/tools/resize?lang=fa')).text()
    expect(html).toContain('<html lang="fa" dir="rtl">')
    const data = pageData(html)
    expect(data.language).toBe('fa')
    expect(data.strings['resize.width']).toBe('عرض')
    expect(Object.keys(data.strings).some((key) => key.startsWith('compress.'))).toBe(false)
    expect(data.options.fit).toEqual({
      kind: 'enum',
      values: ['cover', 'contain', 'fill', 'inside', 'outside'],
      default: 'inside',
    })
    expect(data.options.width).toMatchObject({ kind: 'integer', min: 1, max: 16383 })
  })

  test('the home lists the five groups, and every tool page and generator is served', async () => {
    const html = await (await api.fetch('/?lang=en')).text()
    const groups = ['/tools/compress', '/tools/resize', '/tools/edit', '/tools/convert', '/tools/generate']
    for (const path of groups) expect(html).toContain(`href="${path}"`)
    const generators = ['favicon', 'responsive', 'placeholders', 'social-card'].map(
      (g) => `/tools/generate/${g}`,
    )
    for (const path of [...groups, ...generators]) expect((await api.fetch(path)).status).toBe(200)
    expect((await api.fetch('/tools/unknown')).status).toBe(404)
  })

  test('/tools and /tools/ lead to the tools home, keeping the query', async () => {
    for (const path of ['/tools', '/tools/']) {
      const response = await api.fetch(`${path}?lang=fa`, { redirect: 'manual' })
      expect({ path, status: response.status }).toEqual({ path, status: 302 })
      expect(response.headers.get('location')).toBe('/?lang=fa')
    }
  })

  test('one header for tools and docs: the docs link back to the tools', async () => {
    const docs = await (await api.fetch('/docs/?lang=en')).text()
    expect(docs).toContain('<nav class="site-sections"')
    expect(docs).toMatch(/<a href="\/"[^>]*>Tools<\/a>/)
    const tools = await (await api.fetch('/tools/compress?lang=en')).text()
    expect(tools).toMatch(/<a href="\/docs\/"[^>]*>Documentation<\/a>/)
  })
})

describe('with IMGAPI_TOOLS=false', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ tools: false })
  })
  afterAll(() => api.stop())

  test('/ leads to the docs as before, keeping the query, and the tool pages do not exist', async () => {
    const home = await api.fetch('/?lang=fr', { redirect: 'manual' })
    expect(home.status).toBe(302)
    expect(home.headers.get('location')).toBe('/docs/?lang=fr')
    const tool = await api.fetch('/tools/compress')
    expect(tool.status).toBe(404)
    expect((await tool.json()).code).toBe('NOT_FOUND')
    expect((await api.fetch('/tools', { redirect: 'manual' })).status).toBe(404)
  })

  test('the docs header has no tools section and its brand leads to the docs', async () => {
    const docs = await (await api.fetch('/docs/?lang=en')).text()
    expect(docs).not.toContain('site-sections')
    expect(docs).toContain('<a class="brand" href="/docs/">')
  })
})

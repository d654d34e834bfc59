import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { documentedCommands, exampleSource } from '../../src/docs/examples.ts'
import { escapeHtml } from '../../src/site/html.ts'
import { AREAS, areaPath } from '../../src/docs/page-context.ts'
import { ERROR_CODES } from '../../src/errors/catalogue.ts'
import { HEADER_NAMES } from '../../src/http/headers.ts'
import { OPTION_NAMES } from '../../src/options/schema.ts'
import { startApi, type Api } from '../helpers/api.ts'

const PAGES = ['home', ...AREAS] as const

describe('the docs site, served', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ maxOutputDimension: 4000, maxUploadBytes: 20 * 1024 * 1024 })
  })
  afterAll(() => api.stop())
  const get = (path: string, headers: Record<string, string> = {}) =>
    api.fetch(path, { headers, redirect: 'manual' })

  test('/docs/errors leads to the reference and keeps the query string, so ?lang= still applies', async () => {
    const response = await get('/docs/errors?lang=fa')
    expect([response.status, response.headers.get('location')]).toEqual([301, '/docs/reference?lang=fa'])
  })

  test("an unknown asset is the API's problem+json 404 NOT_FOUND, like every other unknown path", async () => {
    for (const path of ['/docs/assets/main-00000000.js', '/docs/assets/nothing', '/docs/nothing']) {
      const response = await get(path)
      expect([path, response.status, response.headers.get('content-type')]).toEqual([
        path,
        404,
        'application/problem+json',
      ])
      const problem = (await response.json()) as { code: string; status: number; instance: string }
      expect([problem.code, problem.status, problem.instance]).toEqual(['NOT_FOUND', 404, path])
    }
  })

  test('serves every area as its own page, with a strict Content-Security-Policy and no inline script', async () => {
    for (const area of PAGES) {
      const response = await get(areaPath(area))
      expect(response.status, area).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe-inline')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      const html = await response.text()
      // Every script is a file from this origin, or inert JSON data.
      for (const [, attributes, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g))
        expect(
          /src="\/docs\/assets\//.test(attributes!) ||
            (/type="application\/json"/.test(attributes!) && body !== undefined),
        ).toBe(true)
      expect(html).not.toMatch(/\sstyle=|<style/)
      expect(html).not.toMatch(/https?:\/\/(?!localhost)[a-z]/i)
    }
  })

  test('a page chosen from the request headers varies on them and is revalidated; one asked for by ?lang= does not vary', async () => {
    const chosen = await get('/docs/tester', { 'accept-language': 'de, en;q=0.5' })
    expect(chosen.headers.get('vary')).toContain('Accept-Language')
    expect(chosen.headers.get('vary')).toContain('Cookie')
    expect(chosen.headers.get('cache-control')).toBe('no-cache')
    expect(chosen.headers.get('content-language')).toBe('en')
    const asked = await get('/docs/tester?lang=en')
    expect(asked.headers.get('vary')).not.toContain('Accept-Language')
  })

  test('compresses pages and assets by Accept-Encoding, and caches hashed assets for a year', async () => {
    const plain = await (await get('/docs/reference')).text()
    const br = await get('/docs/reference', { 'accept-encoding': 'gzip, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())).toString()).toBe(plain)
    const gzip = await get('/docs/reference', { 'accept-encoding': 'gzip' })
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString()).toBe(plain)
    const script = plain.match(/src="(\/docs\/assets\/main-[a-z0-9]+\.js)"/)![1]!
    const asset = await get(script, { 'accept-encoding': 'br' })
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  })

  test('the reference lists every option, response header and error code, and the limits in force', async () => {
    const html = await (await get('/docs/reference')).text()
    for (const name of OPTION_NAMES) expect(html).toContain(`id="option-${name}"`)
    for (const name of HEADER_NAMES) expect(html).toContain(`<code translate="no">${name}</code>`)
    for (const code of ERROR_CODES) expect(html).toContain(`<tr id="${code}">`)
    // Width and height are capped by this server's output limit, the upload limit is this server's.
    expect(html).toMatch(/id="option-width"[\s\S]*?integer, 1 to 4,000/)
    expect(html).toContain('At most 20 MiB on this server')
  })

  test('in Persian, no table row mixes Persian and Latin digits: the reference writes its figures in Latin, beside the codes and values one types', async () => {
    for (const path of ['/docs/reference', '/docs/rate-limits']) {
      const html = await (await get(`${path}?lang=fa`)).text()
      const rows = [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' '))
      expect(rows.length).toBeGreaterThan(10)
      const mixed = rows.filter((row) => /[0-9]/.test(row) && /[۰-۹]/.test(row))
      expect({ path, mixed }).toEqual({ path, mixed: [] })
    }
    // The figures a reader only reads keep Persian digits: the upload limit, in prose.
    expect(await (await get('/docs/reference?lang=fa')).text()).toContain('۲۰ MiB')
  })

  test('never shows operator-only settings (listen address, library directory, log level, CORS list)', async () => {
    const html = await (await get('/docs/reference')).text()
    for (const name of [
      'IMGAPI_HOST',
      'IMGAPI_PORT',
      'IMGAPI_LIB_DIR',
      'IMGAPI_LOG_LEVEL',
      'IMGAPI_CORS_ORIGINS',
    ])
      expect(html).not.toContain(name)
    expect(html).not.toContain('.cache')
    expect(html).toContain('IMGAPI_MAX_UPLOAD_BYTES')
  })

  test('the reference names every option kind and envelope field in words, never by a missing key', async () => {
    for (const language of ['en', 'fa']) {
      const html = await (await get(`/docs/reference?lang=${language}`)).text()
      const keys = html.match(/\b(site\.reference|fields|options|headers|errors)\.[\w.]+/g) ?? []
      expect({ language, keys }).toEqual({ language, keys: [] })
    }
  })

  test('the rate-limits area shows the limits this server runs with', async () => {
    const html = await (await get('/docs/rate-limits')).text()
    expect(html).toContain('20 MiB')
    expect(html).toContain('4,000')
  })

  test('the examples area shows every example file verbatim', async () => {
    const html = await (await get('/docs/examples')).text()
    for (const file of [
      'curl.sh',
      'browser.js',
      'node.mjs',
      'compress.py',
      'compress.php',
      'compress.go',
      'cli.sh',
      'folder.sh',
      'openapi-fetch.ts',
      'openapi-types.mjs',
    ])
      expect(html).toContain(`static/examples/${file}`)
  })

  test('the typed client shows the commands of its opening comment, the generator with its option first', async () => {
    const html = await (await get('/docs/examples')).text()
    const commands = documentedCommands(exampleSource('openapi-fetch.ts'))
    expect(commands.map((command) => command.split(' ')[0])).toEqual(['npm', 'node', 'npx'])
    expect(html).toContain(commands.join('\n'))
    expect(html).toContain(escapeHtml(exampleSource('openapi-types.mjs')))
    expect(html).toContain('transform(schema)')
  })
})

describe('the rate-limits area with limits and keys on', () => {
  test('states the request rate, that keys are required and which setting turned them on', async () => {
    const api = await startApi({
      rateLimit: 90,
      rateWindowMs: 60_000,
      rateBurst: 15,
      maxClientJobs: 3,
      apiKeys: 'docs-test-key-0123456789abcdef0123456789',
    })
    const html = await (await api.fetch('/docs/rate-limits?lang=en')).text()
    expect(html).toContain('90 requests per 60 sec per client, in bursts of up to 15')
    expect(html).toContain('IMGAPI_API_KEYS<')
    expect(html).not.toContain('IMGAPI_API_KEYS_FILE')
    expect(html).not.toContain('docs-test-key')
    const open = await startApi()
    const plain = await (await open.fetch('/docs/rate-limits?lang=en')).text()
    expect(plain).toContain('IMGAPI_API_KEYS_FILE')
  })
})

describe('the rate-limits area on URL sources', () => {
  test('shows the mode, the timeout and the fetch caps in force, and whether an allow-list is set, never its entries', async () => {
    const entries = '10.20.30.0/24,images.internal.example'
    const api = await startApi({
      urlSources: 'allowlist',
      urlAllow: entries,
      urlTimeoutMs: 7000,
      urlMaxFetches: 12,
      urlMaxFetchesPerHost: 3,
    })
    try {
      const html = await (await api.fetch('/docs/rate-limits?lang=en')).text()
      const section = html.slice(html.indexOf('id="url-sources-title"'))
      const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'))
      const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
        m[1]!
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .replace('&#39;', "'")
          .trim(),
      )
      expect(rows).toEqual([
        'Which URLs are fetched allowlist IMGAPI_URL_SOURCES',
        'Allowed hosts and networks set IMGAPI_URL_ALLOW',
        "Time for a URL's image to arrive 7 sec IMGAPI_URL_TIMEOUT_MS",
        'URLs fetched at once (all origins) 12 IMGAPI_URL_MAX_FETCHES',
        'URLs fetched at once from one host 3 IMGAPI_URL_MAX_FETCHES_PER_HOST',
      ])
      for (const path of ['/docs/rate-limits', '/docs/reference']) {
        const page = await (await api.fetch(path)).text()
        for (const entry of entries.split(','))
          expect({ path, shows: page.includes(entry) }).toEqual({ path, shows: false })
      }
    } finally {
      await api.stop()
    }
    const open = await startApi()
    const plain = await (await open.fetch('/docs/rate-limits?lang=en')).text()
    expect(plain).toContain('Allowed hosts and networks</td><td data-label="On this server">not set<')
    await open.stop()
  })
})

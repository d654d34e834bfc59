import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, renameSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keyFileLine, newKey } from '../../src/access/new-key.ts'
import { parseKeyFile } from '../../src/access/api-keys.ts'
import { BINARY, startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const compress = async (api: Api, headers: Record<string, string> = {}) => {
  const init = rawBody(await fixture('png-tiny-1x1-prophoto-icc.png'))
  return api.fetch('/api/compress?format=png', {
    ...init,
    headers: { ...(init.headers as object), ...headers },
  })
}

describe('API keys given as a list', () => {
  let api: Api
  const key = newKey()
  beforeAll(async () => {
    api = await startApi({ apiKeys: `${key}, ${newKey()}` })
  })
  afterAll(() => api.stop())

  test('refuses compress without a key: 401 UNAUTHORIZED problem+json with WWW-Authenticate', async () => {
    const response = await compress(api)
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([401, 'UNAUTHORIZED'])
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="imgapi"')
  })

  test('refuses an unknown key, and accepts a known one as Bearer or as X-API-Key', async () => {
    expect((await compress(api, { authorization: `Bearer ${newKey()}` })).status).toBe(401)
    expect((await compress(api, { authorization: `Bearer ${key}` })).status).toBe(200)
    expect((await compress(api, { 'x-api-key': key })).status).toBe(200)
    expect((await compress(api, { authorization: `bearer   ${key}` })).status).toBe(200)
  })

  test('leaves health, formats, the docs and the OpenAPI reference open', async () => {
    for (const path of ['/api/health', '/api/formats', '/docs/', '/docs/tester', '/swagger', '/swagger/json'])
      expect((await api.fetch(path)).status, path).toBe(200)
  })

  test('declares the key schemes and the 401 in the OpenAPI document', async () => {
    const spec = await (await api.fetch('/swagger/json')).json()
    expect(Object.keys(spec.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer'])
    const operation = spec.paths['/api/compress'].post
    expect(operation.security).toEqual([{ bearer: [] }, { apiKey: [] }])
    expect(operation.responses['401']).toBeDefined()
    expect(spec.paths['/api/formats'].get.security).toBeUndefined()
  })

  test('has the tester ask for a key (its script draws the key field from the page data)', async () => {
    expect((await testerData(api)).keyRequired).toBe(true)
  })
})

describe('without keys', () => {
  test('the OpenAPI document declares no key scheme and no 401, and the tester has no key field', async () => {
    const api = await startApi()
    const spec = await (await api.fetch('/swagger/json')).json()
    expect(spec.components.securitySchemes).toBeUndefined()
    expect(spec.paths['/api/compress'].post.responses['401']).toBeUndefined()
    expect((await testerData(api)).keyRequired).toBe(false)
    await api.stop()
  })
})

describe('formats behind a key, when configured', () => {
  test('IMGAPI_FORMATS_REQUIRE_KEY makes formats answer 401 without one', async () => {
    const key = newKey()
    const api = await startApi({ apiKeys: key, formatsRequireKey: true })
    expect((await api.fetch('/api/formats')).status).toBe(401)
    expect((await api.fetch('/api/formats', { headers: { 'x-api-key': key } })).status).toBe(200)
    expect((await api.fetch('/api/health')).status).toBe(200)
    await api.stop()
  })
})

describe('the keys file', () => {
  test('holds hashes only; a line names a key id, its hash and an optional limit', () => {
    const key = newKey()
    expect(key).toMatch(/^imgapi_[A-Za-z0-9_-]{43}$/)
    const line = keyFileLine('ci', key, ['limit=2/1m', 'burst=2'])
    expect(line).not.toContain(key)
    const [parsed] = parseKeyFile(`# comment\n${line}\n`)
    expect(parsed).toMatchObject({ id: 'ci', policy: { limit: 2, windowMs: 60_000, burst: 2 } })
    expect(() => parseKeyFile(`ci ${key}`)).toThrow(/line 1: expected sha256:/)
    expect(() => parseKeyFile(`a ${line.split(' ')[1]}\na ${line.split(' ')[1]}`)).toThrow(/used twice/)
  })

  // Reloading is driven in-process (SIGHUP and the directory watch call the same reload).
  test.skipIf(Boolean(BINARY))(
    'applies per-key limits, reloads when the directory changes (a Secret swapped through a symbolic link), and keeps the old keys when the new file is broken',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'imgapi-keys-'))
      const first = newKey()
      const second = newKey()
      // Kubernetes layout: the file is a link into ..data, which points at a timestamped directory.
      const version = (name: string, text: string) => {
        mkdirSync(join(dir, name))
        writeFileSync(join(dir, name, 'keys'), text)
        symlinkSync(name, join(dir, `..data.tmp`))
        renameSync(join(dir, '..data.tmp'), join(dir, '..data'))
      }
      version('v1', `${keyFileLine('one', first, ['limit=2/1m'])}\n`)
      symlinkSync('..data/keys', join(dir, 'keys'))
      const api = await startApi({ apiKeysFile: join(dir, 'keys') })
      const statuses = async (key: string, n: number) => {
        const out = []
        for (let i = 0; i < n; i++) out.push((await compress(api, { 'x-api-key': key })).status)
        return out
      }
      expect(await statuses(first, 3)).toEqual([200, 200, 429])
      expect((await compress(api, { 'x-api-key': second })).status).toBe(401)
      version('v2', `${keyFileLine('two', second)}\n`)
      for (let i = 0; i < 100 && (await compress(api, { 'x-api-key': second })).status !== 200; i++)
        await Bun.sleep(50)
      expect((await compress(api, { 'x-api-key': second })).status).toBe(200)
      expect((await compress(api, { 'x-api-key': first })).status).toBe(401)
      version('v3', 'this is not a keys file\n')
      await Bun.sleep(600)
      api.context!.access.keys.reload('test')
      expect((await compress(api, { 'x-api-key': second })).status).toBe(200)
      await api.stop()
    },
    30_000,
  )
})

/** The facts the tester page hands its script. */
async function testerData(api: Api): Promise<{ keyRequired: boolean }> {
  const page = await (await api.fetch('/docs/tester')).text()
  return JSON.parse(/<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(page)![1]!)
}

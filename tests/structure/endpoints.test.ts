import { describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { helpText } from '../../src/cli-help.ts'
import { configWith } from '../../src/config.ts'
import { ENDPOINT_LIST, ENDPOINTS, guardedOperation, REFERENCE_PATH } from '../../src/endpoints.ts'

/*
 * The endpoints table is the one place the API's paths are written: what the server registers,
 * what a 404 and --help list, and which requests are checked before their body is read all
 * come from it.
 */
describe('the endpoints table', () => {
  const config = configWith({ logLevel: 'silent' })
  const app = createApp(config, createContext(config))

  test('every endpoint in it is a route the server registers with its method, and the reference too', () => {
    const routes = new Set(app.routes.map((route) => `${route.method} ${route.path}`))
    for (const endpoint of ENDPOINTS) expect(routes).toContain(`${endpoint.method} ${endpoint.path}`)
    expect(routes).toContain(`GET ${REFERENCE_PATH}`)
  })

  test('no other route under the API prefix exists', () => {
    const declared = new Set<string>(ENDPOINTS.map((endpoint) => endpoint.path))
    const api = app.routes.filter((route) => route.path.startsWith('/api/') && route.method !== 'OPTIONS')
    expect(api.map((route) => route.path).filter((path) => !declared.has(path))).toEqual([])
  })

  test('a 404 lists them', async () => {
    const response = await app.handle(new Request('http://localhost/api/nowhere'))
    expect(response.status).toBe(404)
    expect((await response.json()).detail).toContain(`expected one of ${ENDPOINT_LIST}`)
  })

  test('--help lists them and the reference', () => {
    expect(helpText()).toContain(`Endpoints: ${ENDPOINT_LIST}; reference at ${REFERENCE_PATH}.`)
  })

  test('the guarded ones are found by method and path, HEAD as GET', () => {
    expect(guardedOperation('POST', '/api/compress')).toBe('compress')
    expect(guardedOperation('HEAD', '/api/formats')).toBe('formats')
    expect(guardedOperation('GET', '/api/health')).toBeUndefined()
    expect(guardedOperation('GET', '/api/compress')).toBeUndefined()
  })
})

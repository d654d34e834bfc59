import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith, type Config } from '../../src/config.ts'
import { createLogger } from '../../src/log.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { MOTO_KEYS, motoForSuite, requireMoto } from '../helpers/moto.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'
import { freePort } from '../helpers/services.ts'

const moto = requireMoto('store: refusals and failures')
const BUCKET = 'imgapi-refusals'

const form = (photo: Uint8Array, store: string, fields: Record<string, string> = {}) =>
  post(multipart(photo, 'cat.jpg', { format: 'webp', width: '64', store, ...fields }))

describe.skipIf(!moto)('POST /api/compress with store: what is refused, and a storage that is down', () => {
  const server = motoForSuite(moto!, [BUCKET, 'imgapi-unlisted'])
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    api = await startApi(server.config(`s3://${BUCKET}/ok/, s3://${BUCKET}/deeper/ok/`))
    photo = await fixture('photo-exif-orientation-6.jpg')
  })
  afterAll(() => api?.stop())

  const refused: [string, string][] = [
    ['a .. segment', `s3://${BUCKET}/ok/../elsewhere/{name}.webp`],
    ['a . segment', `s3://${BUCKET}/ok/./{name}.webp`],
    ['an absolute key', `s3://${BUCKET}/ok//etc/{name}.webp`],
    ['a backslash', `s3://${BUCKET}/ok/a\\..\\b.webp`],
    ['a control character', `s3://${BUCKET}/ok/a\u0001b.webp`],
    ['a key over 1024 bytes', `s3://${BUCKET}/ok/${'é'.repeat(520)}.webp`],
    ['a bucket not configured', 's3://imgapi-unlisted/ok/{name}.webp'],
    ['a prefix not configured', `s3://${BUCKET}/other/{name}.webp`],
    ['a prefix that only starts like one', `s3://${BUCKET}/okay/{name}.webp`],
  ]
  for (const [what, store] of refused)
    test(`refuses ${what} with 400 STORE_NOT_ALLOWED and writes nothing`, async () => {
      const problem = await problemOf(await api.fetch('/api/compress', form(photo, store)))
      expect([problem.httpStatus, problem.code]).toEqual([400, 'STORE_NOT_ALLOWED'])
      expect(await server.keys(BUCKET)).toEqual([])
      expect(await server.keys('imgapi-unlisted')).toEqual([])
    })

  test('refuses an unknown placeholder and a store that is not an s3:// URL as INVALID_PARAMETER', async () => {
    for (const store of [`s3://${BUCKET}/ok/{colour}.webp`, 'https://example.com/x', `s3://${BUCKET}/ok/`]) {
      const problem = await problemOf(await api.fetch('/api/compress', form(photo, store)))
      expect([problem.httpStatus, problem.code, store]).toEqual([400, 'INVALID_PARAMETER', store])
    }
  })

  test('writes under the longest destination that holds the key', async () => {
    const response = await api.fetch('/api/compress', form(photo, `s3://${BUCKET}/deeper/ok/{name}.{ext}`))
    expect(response.status).toBe(200)
    expect((await response.json()).stored.key).toBe('deeper/ok/cat.webp')
  })

  test('refuses store with 400 STORE_NOT_ALLOWED on a server without IMGAPI_STORE', async () => {
    const plain = await startApi()
    const problem = await problemOf(
      await plain.fetch('/api/compress', form(photo, `s3://${BUCKET}/ok/x.webp`)),
    )
    expect([problem.httpStatus, problem.code]).toEqual([400, 'STORE_NOT_ALLOWED'])
    expect(problem.detail).toContain('IMGAPI_STORE')
    // Its companions alone change nothing, and the answer says they were ignored.
    const alone = post(multipart(photo, 'cat.jpg', { storeOverwrite: 'true', storeSignedUrlExpires: '60' }))
    const answer = await plain.fetch('/api/compress', alone)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-ignored-options')).toBe('storeOverwrite,storeSignedUrlExpires')
    await plain.stop()
  })
})

describe.skipIf(!moto)('POST /api/compress with store, the storage unreachable', () => {
  const lines: string[] = []
  const secret = 'wrong-port-secret-key-never-shown'
  const accessKeyId = 'AKIDNEVERSHOWN01'
  const config: Config = configWith({
    logLevel: 'debug',
    store: `s3://${BUCKET}/ok/`,
    storeEndpoint: `http://127.0.0.1:${freePort()}`,
    storeRegion: 'us-east-1',
    storeAccessKeyId: accessKeyId,
    storeSecretAccessKey: secret,
    storeSessionToken: 'session-token-never-shown',
    storeTimeoutMs: 2000,
  })
  const app = createApp(
    config,
    createContext(config, { logger: createLogger('debug', (line) => lines.push(line)) }),
  )
  const call = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init))

  test('answers 502 STORE_FAILED with Retry-After, keeps serving, and never shows a credential', async () => {
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const response = await call('/api/compress', form(photo, `s3://${BUCKET}/ok/{hash}.{ext}`))
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([502, 'STORE_FAILED'])
    expect((await call('/api/health')).status).toBe(200)
    const metrics = await (await call('/metrics')).text()
    expect(metrics).toContain('imgapi_store_writes_total{result="failed"} 1')
    const docs = await Promise.all(
      ['/docs/tester', '/docs/limits', '/docs/reference', '/openapi.json'].map(async (path) =>
        (await call(path)).text(),
      ),
    )
    const seen = [...lines, JSON.stringify(problem), metrics, ...docs].join('\n')
    expect(lines.some((line) => line.includes('"store failed"') || line.includes('STORE_FAILED'))).toBe(true)
    for (const credential of [
      secret,
      accessKeyId,
      'session-token-never-shown',
      'X-Amz-Signature',
      'X-Amz-Credential',
    ])
      expect(seen.includes(credential), credential).toBe(false)
  })
})

describe('POST /api/compress with store, a storage that takes the connection and never answers', () => {
  test('gives up after IMGAPI_STORE_TIMEOUT_MS with 502 STORE_FAILED', async () => {
    const hung = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Promise<Response>(() => {}) })
    const api = await startApi({
      store: `s3://${BUCKET}/ok/`,
      storeEndpoint: `http://127.0.0.1:${hung.port}`,
      storeRegion: 'us-east-1',
      storeAccessKeyId: 'AKIDHUNG',
      storeSecretAccessKey: 'hung',
      storeTimeoutMs: 300,
    })
    const started = performance.now()
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const problem = await problemOf(await api.fetch('/api/compress', form(photo, `s3://${BUCKET}/ok/{hash}`)))
    expect([problem.httpStatus, problem.code]).toEqual([502, 'STORE_FAILED'])
    expect(problem.detail).toContain('within 300 ms')
    expect(performance.now() - started).toBeLessThan(10_000)
    await api.stop()
    hung.stop(true)
  })
})

describe.skipIf(!moto)('the access log of a stored output', () => {
  const server = motoForSuite(moto!, [BUCKET])
  const lines: string[] = []

  test('names the bucket and key, never the keys that signed the write', async () => {
    const config = configWith({ logLevel: 'debug', ...server.config(`s3://${BUCKET}/ok/`) })
    const app = createApp(
      config,
      createContext(config, { logger: createLogger('debug', (line) => lines.push(line)) }),
    )
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const response = await app.handle(
      new Request('http://localhost/api/compress', form(photo, `s3://${BUCKET}/ok/{name}.{ext}`)),
    )
    expect(response.status).toBe(200)
    await Bun.sleep(50)
    const access = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'request' && line.path === '/api/compress')
    expect(access?.stored).toEqual([{ bucket: BUCKET, key: 'ok/cat.webp', result: 'stored' }])
    await app.handle(
      new Request('http://localhost/api/compress', form(photo, `s3://${BUCKET}/ok/{name}.{ext}`)),
    )
    await Bun.sleep(50)
    const again = lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'request')
      .at(-1)
    expect([again.status, again.stored]).toEqual([
      409,
      [{ bucket: BUCKET, key: 'ok/cat.webp', result: 'exists' }],
    ])
    const all = lines.join('\n')
    for (const credential of [MOTO_KEYS.secretAccessKey, MOTO_KEYS.accessKeyId, 'X-Amz-Signature'])
      expect(all.includes(credential), credential).toBe(false)
  })
})

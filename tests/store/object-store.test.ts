import { describe, expect, test } from 'bun:test'
import { createStore } from '../../src/store/index.ts'
import { configWith } from '../../src/config.ts'

/** The PUTs a store sends, answered 200 without touching a network. */
function capturing() {
  const sent: { url: string; headers: Record<string, string> }[] = []
  const send = (async (url: string, init?: RequestInit) => {
    sent.push({ url, headers: init!.headers as Record<string, string> })
    return new Response(null, { status: 200, headers: { etag: '"abc"' } })
  }) as typeof fetch
  return { sent, send }
}

const SETTINGS = {
  store: 's3://imgbucket/a/',
  storeEndpoint: 'http://s3.local:9000',
  storeRegion: 'eu-central-1',
  storeAccessKeyId: 'AKIDUNIT',
  storeSecretAccessKey: 'unit-secret',
}
const OUTPUT = {
  bytes: new Uint8Array([1, 2, 3]),
  format: 'webp' as const,
  width: 10,
  height: 5,
  contentDisposition: 'inline; filename="x.webp"',
}

async function storeOnce(overrides: Record<string, unknown>, request: Record<string, unknown> = {}) {
  const { sent, send } = capturing()
  const store = createStore(configWith({ ...SETTINGS, ...overrides }), send)!
  const plan = store.plan(
    { store: 's3://imgbucket/a/{name}-{width}x{height}.{hash}.{ext}', ...request },
    'cat',
  )
  const [outcome] = await store.storeAll(plan, [OUTPUT], () => {})
  return { sent: sent[0]!, outcome: outcome! }
}

describe("the store's PUT", () => {
  test('goes path-style by default, to the endpoint it was given, signed for its region', async () => {
    const { sent, outcome } = await storeOnce({})
    const url = new URL(sent.url)
    expect(url.origin).toBe('http://s3.local:9000')
    expect(url.pathname).toMatch(/^\/imgbucket\/a\/cat-10x5\.[0-9a-f]{16}\.webp$/)
    expect(url.searchParams.get('X-Amz-Credential')).toContain('/eu-central-1/s3/')
    expect('stored' in outcome && outcome.stored.url).toBe(`http://s3.local:9000${url.pathname}`)
  })

  test('puts the bucket in the host name with IMGAPI_STORE_VIRTUAL_HOSTED', async () => {
    const { sent } = await storeOnce({ storeVirtualHosted: true })
    const url = new URL(sent.url)
    expect(url.host).toBe('imgbucket.s3.local:9000')
    expect(url.pathname).toStartWith('/a/cat-10x5.')
  })

  test('sends the session token, and the headers every object carries', async () => {
    const { sent } = await storeOnce({
      storeSessionToken: 'unit-token',
      storeCacheControl: 'public, max-age=60',
    })
    expect(new URL(sent.url).searchParams.get('X-Amz-Security-Token')).toBe('unit-token')
    expect(sent.headers).toEqual({
      'content-type': 'image/webp',
      'content-disposition': 'inline; filename="x.webp"',
      'cache-control': 'public, max-age=60',
      'if-none-match': '*',
    })
  })

  test('asks for write-if-absent unless storeOverwrite, and stores the hash of the bytes', async () => {
    const { sent } = await storeOnce({}, { storeOverwrite: true })
    expect(sent.headers['if-none-match']).toBeUndefined()
    const digest = new Bun.CryptoHasher('sha256').update(OUTPUT.bytes).digest('hex').slice(0, 16)
    expect(new URL(sent.url).pathname).toContain(`.${digest}.webp`)
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp, createContext } from '../../src/app.ts'
import { configWith } from '../../src/config.ts'
import { createStore } from '../../src/store/index.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { motoForSuite, requireMoto } from '../helpers/moto.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'

const moto = requireMoto('store: variants')
const BUCKET = 'imgapi-variants'
const VARIANTS = [
  { width: 160, format: 'webp' },
  { width: 240, format: 'jpeg' },
  { width: 200, format: 'png' },
]

interface Entry {
  index: number
  width: number
  height: number
  data?: string
  stored?: { bucket: string; key: string; bytes: number }
  problem?: { code: string; status: number }
}

const storeForm = (photo: Uint8Array, template: string, variants: object[] = VARIANTS) =>
  multipart(photo, 'trip.jpg', { variants: JSON.stringify(variants), store: `s3://${BUCKET}/v/${template}` })

describe.skipIf(!moto)('POST /api/compress with variants and store: each output written on its own', () => {
  const server = motoForSuite(moto!, [BUCKET])
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    api = await startApi(server.config(`s3://${BUCKET}/v/`))
    photo = await fixture('photo-exif-orientation-6.jpg')
  })
  afterAll(() => api?.stop())

  test('stores every variant, each object byte for byte the same variant answered alone', async () => {
    const response = await api.fetch('/api/compress', post(storeForm(photo, '{name}/{width}.{ext}')))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { variants: Entry[] }
    expect(body.variants.map((entry) => entry.stored?.key)).toEqual([
      'v/trip/160.webp',
      'v/trip/240.jpg',
      'v/trip/200.png',
    ])
    for (const [index, variant] of VARIANTS.entries()) {
      const entry = body.variants[index]!
      expect(entry.data).toBeUndefined()
      const object = await server.read(BUCKET, entry.stored!.key)
      const alone = await api.fetch(
        '/api/compress',
        post(multipart(photo, 'trip.jpg', { width: String(variant.width), format: variant.format })),
      )
      expect(object.bytes).toEqual(new Uint8Array(await alone.arrayBuffer()))
      expect(entry.stored!.bytes).toBe(object.bytes.length)
      expect(object.headers.get('content-type')).toBe(alone.headers.get('content-type')!)
    }
  })

  test('refuses before any work a template that gives two variants one key, and writes nothing', async () => {
    const before = await server.keys(BUCKET)
    const response = await api.fetch(
      '/api/compress',
      post(storeForm(photo, 'same/{name}.{ext}', [{ quality: 50 }, { quality: 80 }])),
    )
    const problem = await problemOf(response)
    expect([problem.httpStatus, problem.code]).toEqual([400, 'STORE_NOT_ALLOWED'])
    expect(problem.detail).toContain('variants[0] and variants[1]')
    expect(await server.keys(BUCKET)).toEqual(before)
  })

  test("lists an existing object as that variant's 409, and answers 409 when every one existed", async () => {
    const template = 'again/{width}.{format}'
    expect(
      (await api.fetch('/api/compress', post(storeForm(photo, template, VARIANTS.slice(0, 1))))).status,
    ).toBe(200)
    const partly = await api.fetch('/api/compress', post(storeForm(photo, template, VARIANTS.slice(0, 2))))
    expect(partly.status).toBe(200)
    const { variants } = (await partly.json()) as { variants: Entry[] }
    expect(variants[0]!.problem).toMatchObject({ code: 'STORE_EXISTS', status: 409 })
    expect(variants[1]!.stored?.key).toBe('v/again/240.jpeg')
    const all = await problemOf(
      await api.fetch('/api/compress', post(storeForm(photo, template, VARIANTS.slice(0, 2)))),
    )
    expect([all.httpStatus, all.code]).toEqual([409, 'STORE_EXISTS'])
  })
})

describe.skipIf(!moto)('POST /api/compress with variants and store, the storage going down half-way', () => {
  const server = motoForSuite(moto!, [BUCKET])

  test('keeps the stored variant and lists each later one with its STORE_FAILED problem', async () => {
    const config = configWith({ logLevel: 'silent', ...server.config(`s3://${BUCKET}/v/`) })
    let puts = 0
    // The storage stops right after taking the first object.
    const send = (async (url: string, init?: RequestInit) => {
      const response = await fetch(url, init)
      if (++puts === 1) await server.stop()
      return response
    }) as typeof fetch
    const app = createApp(config, createContext(config, { store: createStore(config, send) }))
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const response = await app.handle(
      new Request('http://localhost/api/compress', post(storeForm(photo, '{width}.{ext}'))),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('x-variants-failed')).toBe('2')
    const { variants } = (await response.json()) as { variants: Entry[] }
    expect(variants[0]!.stored?.key).toBe('v/160.webp')
    expect(variants.slice(1).map((entry) => entry.problem?.code)).toEqual(['STORE_FAILED', 'STORE_FAILED'])
    expect(variants[1]!.problem!.status).toBe(502)
  })
})

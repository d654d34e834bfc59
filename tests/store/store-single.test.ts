import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { motoForSuite, requireMoto } from '../helpers/moto.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf, rawBody } from '../helpers/requests.ts'

const moto = requireMoto('store: a single image')
const BUCKET = 'imgapi-single'

describe.skipIf(!moto)('POST /api/compress with store: one image written to S3-compatible storage', () => {
  const server = motoForSuite(moto!, [BUCKET])
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    api = await startApi(server.config(`s3://${BUCKET}/uploads/`))
    photo = await fixture('photo-exif-orientation-6.jpg')
  })
  afterAll(() => api?.stop())

  const store = (template: string, extra: Record<string, string> = {}) =>
    multipart(photo, 'holiday.jpg', {
      format: 'webp',
      width: '320',
      store: `s3://${BUCKET}/uploads/${template}`,
      ...extra,
    })

  test('stores the image under its key, answers the envelope with stored and no data', async () => {
    const response = await api.fetch('/api/compress', post(store('{name}-{width}x{height}.{hash}.{ext}')))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = await response.json()
    expect(body.data).toBeUndefined()
    const { stored } = body
    expect(stored.bucket).toBe(BUCKET)
    expect(stored.key).toMatch(/^uploads\/holiday-320x\d+\.[0-9a-f]{16}\.webp$/)
    expect(stored.key).toContain(`-${body.width}x${body.height}.`)
    expect(stored.bytes).toBe(body.compressedSize)
    expect(stored.etag).toMatch(/^[0-9a-f]{32}$/)
    expect(stored.url).toBe(`${server.endpoint}/${BUCKET}/${stored.key}`)
    expect(stored.signedUrl).toBeUndefined()

    const object = await server.read(BUCKET, stored.key)
    expect(object.status).toBe(200)
    expect(object.headers.get('content-type')).toBe('image/webp')
    expect(object.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(object.headers.get('content-disposition')).toBe('inline; filename="holiday.webp"')
    const meta = await sharp(object.bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', body.width, body.height])

    // The same request answered directly gives the same bytes.
    const direct = await api.fetch(
      '/api/compress',
      post(multipart(photo, 'holiday.jpg', { format: 'webp', width: '320' })),
    )
    expect(new Uint8Array(await direct.arrayBuffer())).toEqual(object.bytes)
    // HEAD agrees with GET.
    const head = await fetch(server.client(BUCKET).presign(stored.key, { method: 'HEAD', expiresIn: 60 }), {
      method: 'HEAD',
    })
    expect(head.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(Number(head.headers.get('content-length'))).toBe(stored.bytes)
  })

  test('names a raw body "image" and dates the key in UTC', async () => {
    const response = await api.fetch(
      `/api/compress?format=png&width=40&store=${encodeURIComponent(`s3://${BUCKET}/uploads/{date}/{name}.{format}`)}`,
      rawBody(photo),
    )
    expect(response.status).toBe(200)
    const { stored } = await response.json()
    expect(stored.key).toBe(`uploads/${new Date().toISOString().slice(0, 10)}/image.png`)
    expect((await server.read(BUCKET, stored.key)).headers.get('content-type')).toBe('image/png')
  })

  test('gives a presigned GET URL and its expiry with storeSignedUrlExpires', async () => {
    const before = Date.now()
    const response = await api.fetch(
      '/api/compress',
      post(store('signed-{hash}.{ext}', { storeSignedUrlExpires: '600' })),
    )
    expect(response.status).toBe(200)
    const { stored } = await response.json()
    expect(stored.signedUrl).toContain('X-Amz-Signature=')
    const expires = Date.parse(stored.signedUrlExpiresAt)
    expect(expires).toBeGreaterThanOrEqual(before + 600_000 - 1000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 600_000 + 1000)
    const fetched = await fetch(stored.signedUrl)
    expect(fetched.status).toBe(200)
    expect((await fetched.arrayBuffer()).byteLength).toBe(stored.bytes)
  })

  test('refuses with 409 STORE_EXISTS an existing key, and replaces it with storeOverwrite', async () => {
    const first = await api.fetch('/api/compress', post(store('fixed.webp')))
    expect(first.status).toBe(200)
    const before = await server.read(BUCKET, 'uploads/fixed.webp')

    const again = await api.fetch('/api/compress', post(store('fixed.webp', { width: '100' })))
    const problem = await problemOf(again)
    expect([problem.httpStatus, problem.code]).toEqual([409, 'STORE_EXISTS'])
    expect((await server.read(BUCKET, 'uploads/fixed.webp')).bytes).toEqual(before.bytes)

    const replaced = await api.fetch(
      '/api/compress',
      post(store('fixed.webp', { width: '100', storeOverwrite: 'true' })),
    )
    expect(replaced.status).toBe(200)
    const after = await sharp((await server.read(BUCKET, 'uploads/fixed.webp')).bytes).metadata()
    expect(after.width).toBe(100)
  })

  test('sends exactly the fields the OpenAPI document requires of a stored envelope, and its stored object', async () => {
    const spec = await (await api.fetch('/swagger/json')).json()
    const schema =
      spec.paths['/api/compress'].post.responses['200'].content['application/json'].schema.oneOf[2]
    const response = await api.fetch('/api/compress', post(store('schema-{hash}.{ext}')))
    const body = await response.json()
    expect(
      Object.keys(body)
        .filter((field) => schema.required.includes(field))
        .sort(),
    ).toEqual([...schema.required].sort())
    expect(Object.keys(body).every((field) => field in schema.properties)).toBe(true)
    expect(Object.keys(body.stored).sort()).toEqual([...schema.properties.stored.required].sort())
  })

  test('keeps a name with spaces, plus signs and accents as the key, and counts every write by its result', async () => {
    const response = await api.fetch(
      '/api/compress',
      post(
        multipart(photo, 'été + hiver 2.jpg', {
          format: 'webp',
          width: '32',
          store: `s3://${BUCKET}/uploads/{name}.{ext}`,
        }),
      ),
    )
    expect(response.status).toBe(200)
    const { stored } = await response.json()
    expect(stored.key).toBe('uploads/été + hiver 2.webp')
    expect(await server.keys(BUCKET)).toContain('uploads/été + hiver 2.webp')
    expect((await server.read(BUCKET, stored.key)).status).toBe(200)
    const metrics = await (await api.fetch('/metrics')).text()
    expect(metrics).toMatch(/imgapi_store_writes_total\{result="stored"\} [1-9]/)
    expect(metrics).toMatch(/imgapi_store_writes_total\{result="exists"\} [1-9]/)
    expect(metrics).toContain('imgapi_store_writes_total{result="failed"} 0')
  })

  test('names the key after the file a url names, known once it is fetched', async () => {
    const origin = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(photo as Uint8Array<ArrayBuffer>),
    })
    const fetching = await startApi({ ...server.config(`s3://${BUCKET}/uploads/`), urlAllow: '127.0.0.1/32' })
    const url = `http://127.0.0.1:${origin.port}/pics/beach.jpg`
    const response = await fetching.fetch('/api/compress', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url,
        format: 'webp',
        width: 48,
        store: `s3://${BUCKET}/uploads/from-url/{name}.{ext}`,
      }),
    })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect([body.sourceUrl, body.stored.key]).toEqual([url, 'uploads/from-url/beach.webp'])
    await fetching.stop()
    origin.stop(true)
  })
})

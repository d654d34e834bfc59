import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { MOTO_KEYS, motoForSuite, requireMoto } from '../helpers/moto.ts'
import { fixture } from '../helpers/paths.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'

const moto = requireMoto('url sources: s3:// objects')
const BUCKET = 'imgapi-sources'
const OTHER = 'imgapi-elsewhere'

const compressUrl = (url: string, query = 'format=webp&width=200') =>
  `/api/compress?${query}&url=${encodeURIComponent(url)}`

describe.skipIf(!moto)('POST /api/compress with an s3:// url', () => {
  const server = motoForSuite(moto!, [BUCKET, OTHER])
  let api: Api
  let photo: Uint8Array
  beforeAll(async () => {
    photo = await fixture('photo-exif-orientation-6.jpg')
    for (const [bucket, key] of [
      [BUCKET, 'public/holiday.jpg'],
      [BUCKET, 'private/holiday.jpg'],
      [OTHER, 'public/holiday.jpg'],
    ] as const)
      await server.client(bucket).write(key, photo)
    await server.client(BUCKET).write('public/notes.jpg', 'meeting notes, not a photo\n')
    // Writes go under out/, reads only under public/: the write list is not a read list.
    api = await startApi({ ...server.config(`s3://${BUCKET}/out/`), urlS3: `s3://${BUCKET}/public/` })
  })
  afterAll(() => api?.stop())

  test('reads an object under IMGAPI_URL_S3 and answers as the same upload would', async () => {
    const response = await api.fetch(compressUrl(`s3://${BUCKET}/public/holiday.jpg`), { method: 'POST' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-source-url')).toBe(`s3://${BUCKET}/public/holiday.jpg`)
    const bytes = new Uint8Array(await response.arrayBuffer())
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width]).toEqual(['webp', 200])
    const upload = await api.fetch('/api/compress?format=webp&width=200', rawBody(photo))
    expect(new Uint8Array(await upload.arrayBuffer())).toEqual(bytes)
  })

  test('refuses a place IMGAPI_URL_S3 does not list: another prefix, another bucket, the write list', async () => {
    for (const url of [
      `s3://${BUCKET}/private/holiday.jpg`,
      `s3://${OTHER}/public/holiday.jpg`,
      `s3://${BUCKET}/out/holiday.webp`,
      `s3://${BUCKET}/public/../private/holiday.jpg`,
      `s3://${BUCKET}/public//holiday.jpg`,
    ]) {
      const problem = await problemOf(await api.fetch(compressUrl(url), { method: 'POST' }))
      expect([url, problem.httpStatus, problem.code]).toEqual([url, 400, 'URL_NOT_ALLOWED'])
    }
  })

  test('a missing object is 502 SOURCE_FAILED with the storage’s status; not an image is 415', async () => {
    const missing = await problemOf(
      await api.fetch(compressUrl(`s3://${BUCKET}/public/gone.jpg`), { method: 'POST' }),
    )
    expect([missing.httpStatus, missing.code, missing.originStatus]).toEqual([502, 'SOURCE_FAILED', 404])
    const notes = await problemOf(
      await api.fetch(compressUrl(`s3://${BUCKET}/public/notes.jpg`), { method: 'POST' }),
    )
    expect([notes.httpStatus, notes.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
  })

  test('no answer carries a credential or a signature', async () => {
    for (const url of [`s3://${BUCKET}/public/gone.jpg`, `s3://${BUCKET}/private/holiday.jpg`]) {
      const text = await (await api.fetch(compressUrl(url), { method: 'POST' })).text()
      expect(text).not.toContain(MOTO_KEYS.accessKeyId)
      expect(text).not.toContain('X-Amz-Signature')
    }
  })
})

describe('POST /api/compress with an s3:// url on a server that reads none', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({})
  })
  afterAll(() => api.stop())

  test('is 400 URL_NOT_ALLOWED, naming the setting', async () => {
    const problem = await problemOf(
      await api.fetch(compressUrl(`s3://${BUCKET}/public/holiday.jpg`), { method: 'POST' }),
    )
    expect([problem.httpStatus, problem.code]).toEqual([400, 'URL_NOT_ALLOWED'])
    expect(problem.detail).toContain('IMGAPI_URL_S3')
  })
})

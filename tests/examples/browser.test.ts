import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'
import { EXAMPLES } from './example-runner.ts'

// The module is plain JavaScript for the docs; this is the shape it promises.
interface BrowserExample {
  compressFile(
    file: File,
    options?: Record<string, string | number | boolean>,
    baseUrl?: string,
  ): Promise<{ blob: Blob; filename: string; originalSize: number; compressedSize: number }>
}
const { compressFile }: BrowserExample = await import(join(EXAMPLES, 'browser.js'))

describe('static/examples/browser.js, run unchanged in Bun', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
  })
  afterAll(() => api.stop())

  test('compresses a File and returns the image with its name and both sizes', async () => {
    const photo = new File([await fixture('photo-exif-orientation-6.jpg')], 'beach.jpg', {
      type: 'image/jpeg',
    })
    const result = await compressFile(photo, { format: 'webp', quality: 75, width: 300 }, api.url)
    expect(result.filename).toBe('beach.webp')
    expect(result.originalSize).toBe(photo.size)
    expect(result.compressedSize).toBe(result.blob.size)
    expect(result.compressedSize).toBeLessThan(result.originalSize)
    expect(result.blob.type).toBe('image/webp')
    const image = await decode(await result.blob.arrayBuffer())
    expect([image.format, image.width, image.height]).toEqual(['webp', 300, 225])
  })

  test('decodes a non-ASCII file name from filename*', async () => {
    const file = new File([await fixture('webp-lossy-alpha.webp')], 'café crème.webp')
    const result = await compressFile(file, { format: 'png' }, api.url)
    expect(result.filename).toBe('café crème.png')
    expect((await decode(await result.blob.arrayBuffer())).format).toBe('png')
  })

  test('throws an Error carrying the problem code and detail', async () => {
    const notes = new File(['meeting notes, not a photo'], 'notes.jpg', { type: 'image/jpeg' })
    await expect(compressFile(notes, {}, api.url)).rejects.toThrow(
      /^UNSUPPORTED_MEDIA_TYPE: expected an image/,
    )
    await expect(compressFile(notes, { quality: 0 }, api.url)).rejects.toThrow(/^INVALID_PARAMETER: quality/)
  })
})

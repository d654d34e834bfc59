import { describe, expect, test } from 'bun:test'
import { startApi } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'

const PHOTO = 'photo-exif-orientation-6.jpg' // 450x600 tagged 6: 600x450 upright

describe('searches and the job timeout', () => {
  test('a search near the timeout returns its best so far instead of failing', async () => {
    const api = await startApi({ jobTimeoutMs: 3000 })
    const slow = await startApi({ jobTimeoutMs: 60_000 })
    try {
      const photo = await fixture(PHOTO)
      // Enlarged to 1200x900, so that the whole search takes several times the bounded server's 3 s.
      const query =
        '/api/compress?format=auto&quality=auto&formats=avif,webp,jpeg&width=1200&withoutEnlargement=false'
      const bounded = await api.fetch(query, rawBody(photo))
      expect(bounded.status).toBe(200)
      const unbounded = await slow.fetch(query, rawBody(photo))
      const encodes = (r: Response) =>
        Number(/encodes;desc="(\d+)"/.exec(r.headers.get('server-timing') ?? '')![1])
      expect(encodes(bounded)).toBeLessThan(encodes(unbounded))
    } finally {
      await Promise.all([api.stop(), slow.stop()])
    }
  }, 120_000)
})

import { afterAll, beforeAll } from 'bun:test'
import { join } from 'node:path'
import { FIXTURES } from '../helpers/paths.ts'

/**
 * An image's origin on loopback, for the pages that name images by url: the server under test
 * fetches from it (allowed with urlAllow: ORIGIN_ALLOW), and it counts what it is asked for, so
 * a test can tell the server's fetch from anything the browser would have sent.
 */
export const ORIGIN_ALLOW = '127.0.0.1/32'

export interface ImageOrigin {
  readonly url: string
  /** Every path asked for, in order. */
  readonly paths: string[]
}

/** Started before the enclosing suite's tests and stopped after them: read `url` inside a test. */
export function imageOrigin(): ImageOrigin {
  const origin = { url: '', paths: [] as string[] }
  let server: ReturnType<typeof Bun.serve> | undefined
  beforeAll(async () => {
    const photo = await Bun.file(join(FIXTURES, 'photo-exif-orientation-6.jpg')).bytes()
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      idleTimeout: 30,
      async fetch(request) {
        const { pathname } = new URL(request.url)
        origin.paths.push(pathname)
        if (pathname === '/missing.jpg') return new Response('not here', { status: 404 })
        // Longer than the URL timeout the suites set: SOURCE_TIMEOUT.
        if (pathname === '/slow.jpg') await Bun.sleep(3000)
        return new Response(photo, { headers: { 'content-type': 'image/jpeg' } })
      },
    })
    origin.url = `http://127.0.0.1:${server.port}`
  })
  afterAll(() => server?.stop(true))
  return origin
}

import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import {
  busy,
  EXAMPLES,
  gaps,
  PYTHON,
  PYTHON_BIN,
  refusingProxy,
  runExample,
  scratchDir,
  testWith,
} from './example-runner.ts'

const withPython = testWith(PYTHON)
const SCRIPT = join(EXAMPLES, 'compress.py')

describe('static/examples/compress.py', () => {
  let api: Api
  let dir: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'beach.jpg'))
    copyFileSync(join(FIXTURES, 'webp-lossy-alpha.webp'), join(dir, 'logo.webp'))
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withPython('writes the WebP next to the input and prints the sizes', async () => {
    const run = await runExample([PYTHON_BIN, SCRIPT, 'beach.jpg'], dir, api.url)
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    const written = readFileSync(join(dir, 'beach.webp'))
    const image = await decode(written)
    expect([image.format, image.width, image.height]).toEqual(['webp', 600, 450])
    const original = statSync(join(dir, 'beach.jpg')).size
    expect(run.stdout).toBe(`beach.jpg -> beach.webp: ${original} -> ${written.length} bytes (compressed)\n`)
  })

  withPython('never overwrites an input already in the output format', async () => {
    const before = readFileSync(join(dir, 'logo.webp'))
    const run = await runExample([PYTHON_BIN, SCRIPT, 'logo.webp'], dir, api.url)
    expect(run.exitCode).toBe(0)
    expect(run.stdout).toStartWith('logo.webp -> logo.min.webp: ')
    expect(readFileSync(join(dir, 'logo.webp')).equals(before)).toBe(true)
    expect((await decode(readFileSync(join(dir, 'logo.min.webp')))).format).toBe('webp')
  })

  withPython('compress() passes any option and takes the extension from the response', async () => {
    // -B: importing the example must not leave __pycache__ in static/examples.
    const call = `import sys; sys.path.insert(0, ${JSON.stringify(EXAMPLES)})
from compress import compress
print(compress("beach.jpg", format="avif", width=200))`
    const run = await runExample([PYTHON_BIN, '-B', '-c', call], dir, api.url)
    expect(run.stderr).toBe('')
    expect(run.stdout.trim().split('\n').at(-1)).toBe('beach.avif')
    const image = await decode(readFileSync(join(dir, 'beach.avif')))
    expect([image.format, image.width, image.height]).toEqual(['heif', 200, 150])
  })

  withPython('exits 1 with the problem code and detail when the file is not an image', async () => {
    await Bun.write(join(dir, 'notes.jpg'), 'meeting notes, not a photo\n')
    const run = await runExample([PYTHON_BIN, SCRIPT, 'notes.jpg'], dir, api.url)
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toStartWith('UNSUPPORTED_MEDIA_TYPE: expected an image')
  })
})

describe('static/examples/compress.py when the server is busy', () => {
  let api: Api
  let dir: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(dir, 'dot.png'))
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withPython('waits Retry-After on 503, backs off with jitter on a bare 429, then succeeds', async () => {
    const proxy = refusingProxy(api.url, [() => busy(503, 1), () => busy(429)])
    try {
      const run = await runExample([PYTHON_BIN, SCRIPT, 'dot.png'], dir, proxy.url)
      expect(run.stderr).toBe('')
      expect(run.stdout).toStartWith('dot.png -> dot.webp: ')
      expect(proxy.arrivals).toHaveLength(3)
      const [afterRetryAfter = 0, afterJitter = 0] = gaps(proxy.arrivals)
      expect(afterRetryAfter).toBeGreaterThanOrEqual(985)
      expect(afterRetryAfter).toBeLessThan(2000)
      expect(afterJitter).toBeLessThan(1000 + 500) // uniform(0, 0.5 * 2^1) seconds, plus the request
    } finally {
      proxy.stop()
    }
  })

  withPython('gives up after 4 attempts and exits 1 with the last problem', async () => {
    const proxy = refusingProxy(
      api.url,
      Array(5).fill(() => busy(503, 0)),
    )
    try {
      const run = await runExample([PYTHON_BIN, SCRIPT, 'dot.png'], dir, proxy.url)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toBe('OVERLOADED: busy, try again later\n')
      expect(proxy.arrivals).toHaveLength(4)
    } finally {
      proxy.stop()
    }
  })
})

import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { CURL, EXAMPLES, runExample, scratchDir, testWith } from './example-runner.ts'

const withCurl = testWith(CURL)

describe('static/examples/folder.sh', () => {
  let api: Api
  let dir: string
  const folder = (name: string) => ['bash', join(EXAMPLES, 'folder.sh'), name]
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    mkdirSync(join(dir, 'options'))
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withCurl(
    'converts each JPEG and PNG to WebP beside it, skips done ones and prints the totals',
    async () => {
      const photos = join(dir, 'photos')
      await Bun.write(join(photos, 'readme.txt'), 'not an image, and not picked up by the glob\n')
      // Names that curl -F would misread, and an upper-case extension.
      copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(photos, 'Paris, 2023.jpg'))
      copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(photos, 'dot;space.PNG'))
      copyFileSync(join(FIXTURES, 'tiff-rgb-uncompressed.tiff'), join(photos, 'scan.tiff'))

      const first = await runExample(folder('photos'), dir, api.url)
      expect(first.stderr).toBe('')
      expect(first.exitCode).toBe(0)
      const paris = await decode(readFileSync(join(photos, 'Paris, 2023.webp')))
      expect([paris.format, paris.width, paris.height]).toEqual(['webp', 600, 450])
      const dot = await decode(readFileSync(join(photos, 'dot;space.webp')))
      expect([dot.format, dot.width, dot.height]).toEqual(['webp', 1, 1])
      expect(readdirSync(photos).sort()).toEqual([
        'Paris, 2023.jpg',
        'Paris, 2023.webp',
        'dot;space.PNG',
        'dot;space.webp',
        'readme.txt',
        'scan.tiff',
      ])
      const size = (name: string) => statSync(join(photos, name)).size
      const before = size('Paris, 2023.jpg') + size('dot;space.PNG')
      const after = size('Paris, 2023.webp') + size('dot;space.webp')
      expect(first.stdout).toContain(
        `photos/Paris, 2023.jpg: ${size('Paris, 2023.jpg')} -> ${size('Paris, 2023.webp')} bytes`,
      )
      expect(first.stdout.trim().split('\n').at(-1)).toBe(`total: ${before} -> ${after} bytes`)

      const again = await runExample(folder('photos'), dir, api.url)
      expect(again.exitCode).toBe(0)
      expect(again.stdout).toContain('skip photos/Paris, 2023.jpg (photos/Paris, 2023.webp exists)')
      expect(again.stdout.trim().split('\n').at(-1)).toBe('total: 0 -> 0 bytes')
    },
  )

  withCurl(
    'goes on past a file the API refuses, printing its problem, and exits 1 with every good file written',
    async () => {
      const mixed = join(dir, 'mixed')
      await Bun.write(join(mixed, 'b.png'), 'this is text with a .png name\n')
      copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(mixed, 'a.jpg'))
      copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(mixed, 'c.png'))
      const run = await runExample(folder('mixed'), dir, api.url)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toContain('mixed/b.png: failed with HTTP 415')
      expect(run.stderr).toContain('"code":"UNSUPPORTED_MEDIA_TYPE"')
      // The files on either side of the bad one were both converted, and nothing half-written stayed.
      expect(readdirSync(mixed).sort()).toEqual(['a.jpg', 'a.webp', 'b.png', 'c.png', 'c.webp'])
      expect(run.stdout.trim().split('\n').at(-1)).toEndWith(', 1 failed')
    },
  )

  withCurl(
    'with options and an output folder, as the web tools give it: each file answered in its own format, skipped when done',
    async () => {
      const mixed = join(dir, 'options')
      copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(mixed, 'a.jpg'))
      copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(mixed, 'b.png'))
      const command = [...folder('options'), 'quality=auto-medium&width=300', 'small']
      const first = await runExample(command, dir, api.url)
      expect(first.stderr).toBe('')
      expect(first.exitCode).toBe(0)
      expect(readdirSync(join(dir, 'small')).sort()).toEqual(['a.jpg', 'b.png'])
      const photo = await decode(readFileSync(join(dir, 'small/a.jpg')))
      expect([photo.format, photo.width]).toEqual(['jpeg', 300])
      const again = await runExample(command, dir, api.url)
      expect(again.stdout).toContain('skip options/a.jpg (small/a.jpg exists)')
      expect(again.stdout.trim().split('\n').at(-1)).toBe('total: 0 -> 0 bytes')
    },
  )

  withCurl('refuses to keep formats in place, where a result would overwrite its original', async () => {
    const run = await runExample([...folder('options'), 'format=original'], dir, api.url)
    expect(run.exitCode).toBe(2)
    expect(run.stderr).toContain('give an output folder')
  })
})

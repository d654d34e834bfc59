import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { EXAMPLES, PHP, PHP_CURL, runExample, scratchDir, testWith } from './example-runner.ts'

const SCRIPT = join(EXAMPLES, 'compress.php')

describe('static/examples/compress.php', () => {
  let api: Api
  let dir: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'beach.jpg'))
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  testWith(PHP)('passes php -l', async () => {
    const lint = await runExample(['php', '-l', SCRIPT], dir, api.url)
    expect(lint.stdout).toContain('No syntax errors detected')
    expect(lint.exitCode).toBe(0)
  })

  testWith(PHP, PHP_CURL)('writes the WebP next to the input and prints the sizes', async () => {
    const run = await runExample(['php', SCRIPT, 'beach.jpg'], dir, api.url)
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    const written = readFileSync(join(dir, 'beach.webp'))
    const image = await decode(written)
    expect([image.format, image.width, image.height]).toEqual(['webp', 600, 450])
    const original = statSync(join(dir, 'beach.jpg')).size
    expect(run.stdout).toStartWith(
      `beach.jpg -> beach.webp: ${original} -> ${written.length} bytes (ratio 0.`,
    )
    expect(run.stdout).toEndWith(', 600x450)\n')
  })

  testWith(PHP, PHP_CURL)(
    'exits 1 with the problem code and detail when the file is not an image',
    async () => {
      await Bun.write(join(dir, 'notes.jpg'), 'meeting notes, not a photo\n')
      const run = await runExample(['php', SCRIPT, 'notes.jpg'], dir, api.url)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toStartWith('UNSUPPORTED_MEDIA_TYPE: expected an image')
      expect(await Bun.file(join(dir, 'notes.webp')).exists()).toBe(false)
    },
  )
})

import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliCommand } from '../helpers/cli.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { EXAMPLES, scratchDir } from './example-runner.ts'

describe('static/examples/cli.sh', () => {
  const dir = scratchDir()
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('compresses a folder with sub-folders to WebP, a size target with JSON, and one image through a pipe', async () => {
    const photos = join(dir, 'photos')
    mkdirSync(join(photos, 'day-2'), { recursive: true })
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(photos, 'pier.jpg'))
    copyFileSync(join(FIXTURES, 'webp-lossy-alpha.webp'), join(photos, 'day-2/logo.webp'))
    const proc = Bun.spawn(['bash', join(EXAMPLES, 'cli.sh'), photos, join(dir, 'small')], {
      cwd: dir,
      env: { ...process.env, IMGAPI: cliCommand().join(' ') },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stderr, exitCode] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
    // A failed file is a line `<file>: <CODE>: <detail>`; the summary tables are all there is.
    expect(stderr).not.toMatch(/: [A-Z_]{4,}: /)
    expect(exitCode).toBe(0)
    expect(readdirSync(join(dir, 'small'), { recursive: true }).map(String).sort()).toContain(
      'day-2/logo.webp',
    )
    expect((await decode(await Bun.file(join(dir, 'small/pier.webp')).bytes())).format).toBe('webp')
    expect((await decode(await Bun.file(join(dir, 'small/first.avif')).bytes())).format).toBe('heif')
  })
})

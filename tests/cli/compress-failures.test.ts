import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { runCli } from '../helpers/cli.ts'
import { announceCorpusSkip, CORPUS, FIXTURES, HAS_CORPUS, readManifest } from '../helpers/paths.ts'

const scratch = mkdtempSync(join(tmpdir(), 'imgapi-cli-failures-'))
afterAll(() => {
  chmodSync(scratch, 0o755)
  rmSync(scratch, { recursive: true, force: true })
})

function folderOf(name: string, files: readonly string[], from = CORPUS): string {
  const dir = join(scratch, name)
  mkdirSync(dir, { recursive: true })
  for (const file of files) copyFileSync(join(from, file), join(dir, file))
  return dir
}

announceCorpusSkip('imgapi compress failures on corpus files')

describe('imgapi compress: one bad file never stops the rest', () => {
  test('an output folder that cannot be written fails each file with WRITE_FAILED, exit 1', async () => {
    const dir = folderOf('unwritable-in', ['photo-exif-orientation-6.jpg', 'webp-lossy-alpha.webp'], FIXTURES)
    const out = join(scratch, 'read-only')
    mkdirSync(out)
    chmodSync(out, 0o555)
    // Root writes through a mode of 555; nobody writes under a plain file.
    const blocked = process.getuid?.() === 0 ? join(dir, 'webp-lossy-alpha.webp', 'sub') : join(out, 'sub')
    const run = await runCli([dir, '--out', blocked, '--format', 'webp', '--json'])
    expect(run.code).toBe(1)
    expect(run.lines.map((line) => line.code)).toEqual(['WRITE_FAILED', 'WRITE_FAILED'])
    expect(readdirSync(out)).toEqual([])
  })

  test.skipIf(!HAS_CORPUS)(
    "the corpus's bad-* files among good ones: exit 1, each bad one named, every good one written",
    async () => {
      const names = readdirSync(CORPUS)
      const bad = names.filter((name) => name.startsWith('bad-'))
      const good = [
        'photo-exif-orientation-6.jpg',
        'gif-animated-10frames.gif',
        'png-tiny-1x1-prophoto-icc.png',
      ]
      const dir = folderOf('mixed', [...bad, ...good])
      const out = join(scratch, 'mixed-out')
      const run = await runCli([dir, '--out', out, '--format', 'webp', '--width', '300'])
      expect(run.code).toBe(1)
      for (const name of bad) expect(run.stderr).toMatch(new RegExp(`${name}: [A-Z_]+: `))
      expect(run.stderr).toMatch(/\s+\d+\s+3\s+\d+\s/)
      for (const name of good) {
        const meta = await sharp(join(out, name.replace(/\.[a-z]+$/, '.webp'))).metadata()
        expect(meta.format).toBe('webp')
      }
    },
  )

  test.skipIf(!HAS_CORPUS)(
    'an effort-9 AVIF past a short job timeout is killed and reported while the batch goes on',
    async () => {
      const dir = folderOf('slow', ['photo-pier-4mp.jpg', 'png-tiny-1x1-prophoto-icc.png'])
      const run = await runCli(
        [dir, '--out', join(scratch, 'slow-out'), '--format', 'avif', '--effort', '9', '--json'],
        {
          env: { IMGAPI_JOB_TIMEOUT_MS: '1500' },
        },
      )
      expect(run.code).toBe(1)
      const byFile = Object.fromEntries(run.lines.map((line) => [line.file.split('/').pop(), line]))
      // Killed at its CPU time, or, on a machine other work keeps busy, at twice that on the clock
      // (jobs/job-watch.ts): either way the job watch ended it, and the batch went on.
      expect(byFile['photo-pier-4mp.jpg']).toMatchObject({ status: 'failed' })
      expect(['PROCESSING_TIMEOUT', 'OVERLOADED']).toContain(byFile['photo-pier-4mp.jpg']!.code)
      expect(byFile['png-tiny-1x1-prophoto-icc.png']).toMatchObject({ status: 'done', outputFormat: 'avif' })
    },
  )

  test.skipIf(!HAS_CORPUS)(
    'Ctrl+C mid-batch: exit 130, finished files kept, no partial or temporary file',
    async () => {
      const photos = readManifest(CORPUS)
        .filter((row) => row.file.startsWith('photo-') && row.file.endsWith('.jpg'))
        .map((row) => row.file)
      const dir = folderOf('interrupted', photos)
      const out = join(scratch, 'interrupted-out')
      const run = await runCli([dir, '--out', out, '--format', 'webp', '--jobs', '1'], {
        started: (proc) => {
          const poll = setInterval(() => {
            if (existsSync(out) && readdirSync(out).some((name) => name.endsWith('.webp'))) {
              clearInterval(poll)
              proc.kill('SIGINT')
            }
          }, 20)
        },
      })
      expect(run.code).toBe(130)
      const written = readdirSync(out)
      expect(written.length).toBeGreaterThan(0)
      expect(written.length).toBeLessThan(photos.length)
      for (const name of written) {
        expect(name).toEndWith('.webp')
        expect((await sharp(join(out, name)).metadata()).format).toBe('webp')
      }
    },
  )
})

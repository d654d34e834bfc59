import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApi } from '../helpers/api.ts'
import { runCli } from '../helpers/cli.ts'
import { announceCorpusSkip, CORPUS, HAS_CORPUS } from '../helpers/paths.ts'
import { multipart, post } from '../helpers/requests.ts'

const scratch = mkdtempSync(join(tmpdir(), 'imgapi-cli-same-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

announceCorpusSkip("imgapi compress answers with the API's bytes")

/** Each case: the flags given to the command, and the same options as the API's form fields. */
interface Case {
  readonly flags: readonly string[]
  readonly fields: Record<string, string>
  readonly files: readonly string[]
  readonly overlay?: string
}

const CASES: readonly Case[] = [
  {
    flags: ['--format', 'webp', '--width', '1600'],
    fields: { format: 'webp', width: '1600' },
    files: ['photo-pier-4mp.jpg', 'png-screenshot-palette-marble.png', 'gif-animated-10frames.gif'],
  },
  {
    flags: ['--quality', 'auto-high', '--width', '800'],
    fields: { quality: 'auto-high', width: '800' },
    files: ['photo-lake-dusk-4mp-progressive.jpg', 'webp-lossy-photo-tree.webp'],
  },
  {
    flags: ['--format', 'auto', '--max-bytes', '50k', '--allow-resize'],
    fields: { format: 'auto', maxBytes: '50000', allowResize: 'true' },
    files: ['png-graphic-alpha-arc-wallpaper.png'],
  },
  {
    flags: [
      '--overlay',
      join(CORPUS, 'webp-lossy-alpha.webp'),
      '--overlay-opacity',
      '0.5',
      '--format',
      'jpeg',
    ],
    fields: { overlayOpacity: '0.5', format: 'jpeg' },
    overlay: 'webp-lossy-alpha.webp',
    files: ['photo-exif-orientation-6.jpg'],
  },
]

describe.skipIf(!HAS_CORPUS)('imgapi compress gives the bytes the API answers', () => {
  for (const [index, { flags, fields, files, overlay }] of CASES.entries()) {
    test(`${flags.join(' ')} on ${files.join(', ')}`, async () => {
      const dir = join(scratch, `in-${index}`)
      mkdirSync(dir)
      for (const file of files) copyFileSync(join(CORPUS, file), join(dir, file))
      const run = await runCli([dir, '--out', join(scratch, `out-${index}`), '--json', ...flags])
      expect(run.code).toBe(0)
      const api = await startApi()
      try {
        for (const line of run.lines) {
          const input = await Bun.file(line.file).bytes()
          const form = multipart(input, 'image', fields)
          if (overlay)
            form.append('overlay', new File([await Bun.file(join(CORPUS, overlay)).bytes()], overlay))
          const response = await api.fetch('/api/compress', post(form))
          expect(response.status).toBe(200)
          const answer = new Uint8Array(await response.arrayBuffer())
          const written = await Bun.file(line.output).bytes()
          expect({
            file: line.file,
            bytes: written.length,
            same: Bun.hash(written) === Bun.hash(answer),
          }).toEqual({
            file: line.file,
            bytes: answer.length,
            same: true,
          })
        }
      } finally {
        await api.stop()
      }
    })
  }
})

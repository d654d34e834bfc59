import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { EXAMPLES, GO, GOFMT, runExample, scratchDir, testWith } from './example-runner.ts'

describe('static/examples/compress.go', () => {
  let api: Api
  let dir: string
  let module: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'beach.jpg'))
    // As a reader would use it: the file alone in a new module.
    module = scratchDir()
    copyFileSync(join(EXAMPLES, 'compress.go'), join(module, 'compress.go'))
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
    rmSync(module, { recursive: true, force: true })
  })

  testWith(GO, GOFMT)('is gofmt-clean and passes go vet in a fresh module', async () => {
    const gofmt = await runExample(['gofmt', '-l', 'compress.go'], module, api.url)
    expect([gofmt.exitCode, gofmt.stdout, gofmt.stderr]).toEqual([0, '', ''])
    expect((await runExample(['go', 'mod', 'init', 'example'], module, api.url)).exitCode).toBe(0)
    const vet = await runExample(['go', 'vet', './...'], module, api.url)
    expect([vet.exitCode, vet.stderr]).toEqual([0, ''])
  })

  // The first `go run` compiles the standard library packages it needs: allow for a cold cache.
  testWith(GO)(
    'writes <name>.webp next to the input and prints the sizes',
    async () => {
      const run = await runExample(['go', 'run', join(module, 'compress.go'), 'beach.jpg'], dir, api.url)
      expect(run.stderr).toBe('')
      expect(run.exitCode).toBe(0)
      const written = readFileSync(join(dir, 'beach.webp'))
      const image = await decode(written)
      expect([image.format, image.width, image.height]).toEqual(['webp', 600, 450])
      const original = statSync(join(dir, 'beach.jpg')).size
      expect(run.stdout).toBe(
        `beach.jpg -> beach.webp: ${original} -> ${written.length} bytes (ratio ${(written.length / original).toFixed(4)}, 600x450)\n`,
      )
    },
    180_000,
  )

  testWith(GO)(
    'exits 1 with the problem code and detail when the file is not an image',
    async () => {
      await Bun.write(join(dir, 'notes.jpg'), 'meeting notes, not a photo\n')
      const run = await runExample(['go', 'run', join(module, 'compress.go'), 'notes.jpg'], dir, api.url)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toStartWith('UNSUPPORTED_MEDIA_TYPE: expected an image')
      expect(await Bun.file(join(dir, 'notes.webp')).exists()).toBe(false)
    },
    180_000,
  )
})

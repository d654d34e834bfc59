import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { EXAMPLES, NODE, runExample, scratchDir, testWith, type Tool } from './example-runner.ts'

const RUNTIMES: Tool[] = [
  { ...NODE, name: 'node' },
  { name: 'bun', missing: undefined },
]

describe('static/examples/node.mjs', () => {
  let api: Api
  let dir: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'beach.jpg'))
    await Bun.write(join(dir, 'notes.jpg'), 'meeting notes, not a photo\n')
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  for (const runtime of RUNTIMES) {
    const command = (...args: string[]) => [
      runtime.name === 'bun' ? process.execPath : runtime.name,
      join(EXAMPLES, 'node.mjs'),
      ...args,
    ]

    testWith(runtime)(
      `with ${runtime.name}: writes the WebP and prints the sizes from the headers`,
      async () => {
        const output = `beach-${runtime.name}.webp`
        const run = await runExample(command('beach.jpg', output), dir, api.url)
        expect(run.stderr).toBe('')
        expect(run.exitCode).toBe(0)
        const written = readFileSync(join(dir, output))
        const image = await decode(written)
        expect([image.format, image.width, image.height]).toEqual(['webp', 600, 450])
        const original = statSync(join(dir, 'beach.jpg')).size
        expect(run.stdout).toStartWith(
          `beach.jpg -> ${output}: ${original} -> ${written.length} bytes (ratio 0.`,
        )
        expect(run.stdout).toEndWith(', 600x450)\n')
      },
    )

    testWith(runtime)(`with ${runtime.name}: exits 1 with the problem code and detail`, async () => {
      const run = await runExample(command('notes.jpg', 'notes.webp'), dir, api.url)
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toStartWith('UNSUPPORTED_MEDIA_TYPE: expected an image')
      expect(await Bun.file(join(dir, 'notes.webp')).exists()).toBe(false)
    })
  }
})

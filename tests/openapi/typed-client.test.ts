import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }
import { documentedCommands } from '../../src/docs/examples.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { fixture, ROOT } from '../helpers/paths.ts'
import { EXAMPLES, NODE, runExample, scratchDir, testWith } from '../examples/example-runner.ts'

const withNode = testWith(NODE)
const EXAMPLE = 'openapi-fetch.ts'
const GENERATOR = 'openapi-types.mjs'

describe('the typed-client example (static/examples/openapi-fetch.ts), set up as its header says', () => {
  let api: Api
  let dir: string
  let commands: string[]
  beforeAll(async () => {
    // Loopback is let in for the url example, which fetches from an origin this test serves.
    api = await startApi({ urlAllow: '127.0.0.1/32' }, { socket: true })
    dir = scratchDir()
    for (const file of [EXAMPLE, GENERATOR]) copyFileSync(join(EXAMPLES, file), join(dir, file))
    // What the install command puts there: this repository's own packages (the tests run offline).
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    commands = documentedCommands(await Bun.file(join(EXAMPLES, EXAMPLE)).text())
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withNode('documents an install of the exact versions this repository tests with', async () => {
    const [install] = commands
    const packages = ['openapi-fetch', 'openapi-typescript', 'typescript'] as const
    expect(install).toBe(
      `npm install ${packages.map((name) => `${name}@${pkg.devDependencies[name]}`).join(' ')}`,
    )
  })

  withNode(
    'generates the types and type-checks the example with the commands of its header, verbatim',
    async () => {
      const rest = commands.slice(1)
      expect(rest.map((command) => command.split(' ').slice(0, 2).join(' '))).toEqual([
        `node ${GENERATOR}`,
        'npx tsc',
      ])
      for (const command of rest) {
        // Asynchronously: the generator reads the document from this process's server.
        const run = await runExample(
          ['sh', '-c', command.replace('http://localhost:3000', api.url)],
          dir,
          api.url,
        )
        const { exitCode } = run
        const output = run.stdout + run.stderr
        expect({ command, exitCode, output }).toEqual({
          command,
          exitCode: 0,
          output: expect.any(String),
        })
      }
      const source = await Bun.file(join(dir, EXAMPLE)).text()
      expect(source).not.toMatch(/\bas\s+(unknown|any|never)\b|@ts-(ignore|expect-error)/)
    },
    120_000,
  )

  withNode(
    'uploads a file and reads the result and its headers through the typed client',
    async () => {
      const example = await import(join(dir, EXAMPLE))
      const client = example.imgapiClient(api.url)
      const photo = await fixture('photo-exif-orientation-6.jpg')
      const { webp, savedPercent } = await example.compressToWebp(
        client,
        new Blob([photo as Uint8Array<ArrayBuffer>]),
      )
      const decoded = await decode(await webp.arrayBuffer())
      expect(decoded.format).toBe('webp')
      expect(savedPercent).toBeGreaterThan(0)
      const origin = Bun.serve({
        port: 0,
        hostname: '127.0.0.1',
        fetch: () => new Response(photo as Uint8Array<ArrayBuffer>),
      })
      try {
        const fromUrl = await example.compressUrlToWebp(client, `http://127.0.0.1:${origin.port}/photo.jpg`)
        expect((await decode(await fromUrl.webp.arrayBuffer())).format).toBe('webp')
        expect(fromUrl.from).toBe(`http://127.0.0.1:${origin.port}/photo.jpg`)
      } finally {
        origin.stop(true)
      }
      expect((await example.writableFormats(client)).sort()).toEqual([
        'avif',
        'gif',
        'ico',
        'jpeg',
        'png',
        'tiff',
        'webp',
      ])
    },
    60_000,
  )
})

import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { fixture, ROOT } from '../helpers/paths.ts'
import { EXAMPLES, NODE, runExample, scratchDir, testWith } from '../examples/example-runner.ts'

/*
 * The OpenAPI document as three common client generators read it, each with its documented
 * configuration: openapi-typescript with openapi-fetch, orval (client "fetch", one function per
 * request media type: splitByContentType) and @hey-api/openapi-ts (client-fetch). Each generates
 * a client from a live server's document, a small program compresses an image with it and reads
 * the image and its headers, the programs type-check without a cast, and they run against the
 * server. The document once had one request body for two media types and eight response media
 * types: orval sent the image as JSON (415) and hey-api typed a Blob as the JSON envelope.
 */
const withNode = testWith(NODE)
const PROGRAMS = readdirSync(join(import.meta.dir, 'generators')).filter((name) =>
  name.endsWith('-program.ts'),
)
const TSC =
  'npx tsc --noEmit --strict --target es2022 --module preserve --moduleResolution bundler --lib es2023,dom,dom.iterable --allowImportingTsExtensions'

describe('clients generated from the OpenAPI document', () => {
  let api: Api
  let dir: string
  let origin: ReturnType<typeof Bun.serve>
  let photo: Uint8Array
  const run = async (command: string) => {
    const result = await runExample(['sh', '-c', command], dir, api.url)
    return { command, exitCode: result.exitCode, output: result.stdout + result.stderr }
  }

  beforeAll(async () => {
    photo = await fixture('photo-exif-orientation-6.jpg')
    // Loopback is let in: hey-api's client names the image by url (see its program).
    api = await startApi({ urlAllow: '127.0.0.1/32' }, { socket: true })
    origin = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(photo as Uint8Array<ArrayBuffer>),
    })
    dir = scratchDir()
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    for (const name of PROGRAMS) copyFileSync(join(import.meta.dir, 'generators', name), join(dir, name))
    copyFileSync(join(EXAMPLES, 'openapi-types.mjs'), join(dir, 'openapi-types.mjs'))
    await Bun.write(join(dir, 'openapi.json'), await (await api.fetch('/swagger/json')).text())
    await Bun.write(
      join(dir, 'orval.config.mjs'),
      `export default { imgapi: { input: './openapi.json', output: { target: './orval/client.ts', client: 'fetch', mode: 'single', baseUrl: ${JSON.stringify(api.url)}, override: { splitByContentType: true } } } }\n`,
    )
  })
  afterAll(async () => {
    origin.stop(true)
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withNode(
    'each generator writes a client, and the three programs type-check against them without a cast',
    async () => {
      for (const command of [
        `node openapi-types.mjs ${api.url}/swagger/json openapi-typescript/imgapi.ts`,
        'npx orval --config orval.config.mjs',
        'npx openapi-ts -i openapi.json -o hey-api -c @hey-api/client-fetch',
        `${TSC} ${PROGRAMS.join(' ')}`,
      ]) {
        const result = await run(command)
        expect(result).toEqual({ command, exitCode: 0, output: expect.any(String) })
      }
      for (const name of PROGRAMS) {
        const source = await Bun.file(join(dir, name)).text()
        expect([name, /\bas\s+(unknown|any|never|Blob)\b|@ts-(ignore|expect-error)/.test(source)]).toEqual([
          name,
          false,
        ])
      }
    },
    180_000,
  )

  withNode(
    'each program compresses an image against the live server and reads it and its headers',
    async () => {
      const image = new Blob([photo as Uint8Array<ArrayBuffer>])
      const results = [
        await (await import(join(dir, 'openapi-fetch-program.ts'))).compressWithOpenapiFetch(api.url, image),
        await (await import(join(dir, 'orval-program.ts'))).compressWithOrval(image),
        await (
          await import(join(dir, 'hey-api-program.ts'))
        ).compressWithHeyApi(api.url, `http://127.0.0.1:${origin.port}/photo.jpg`),
      ]
      for (const result of results) {
        const bytes = new Uint8Array(await result.webp.arrayBuffer())
        const decoded = await decode(bytes)
        expect([decoded.format, decoded.width, result.outputFormat, result.compressedSize]).toEqual([
          'webp',
          320,
          'webp',
          bytes.length,
        ])
      }
    },
    60_000,
  )
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { fixture, ROOT } from '../helpers/paths.ts'
import { writeSpec } from './spec-file.ts'

const EXAMPLES = join(ROOT, 'static/examples')
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'))

/** What a developer runs: openapi-typescript on the served document, binary mapped to Blob. */
async function generateTypes(spec: Record<string, any>): Promise<void> {
  const ast = await openapiTS(spec as never, {
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  })
  mkdirSync(join(EXAMPLES, 'generated'), { recursive: true })
  await Bun.write(join(EXAMPLES, 'generated/imgapi.ts'), astToString(ast))
}

async function typecheck(file: string): Promise<string> {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'Preserve',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      strict: true,
      noUncheckedIndexedAccess: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    files: [file],
  }
  const path = join(mkdtempSync(join(tmpdir(), 'imgapi-client-')), 'tsconfig.json')
  await Bun.write(path, JSON.stringify(config))
  const proc = Bun.spawn([join(ROOT, 'node_modules/.bin/tsc'), '-p', path], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const output = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text())
  return (await proc.exited) === 0 ? '' : output
}

describe('a client generated from the OpenAPI document', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    await generateTypes((await writeSpec(api)).spec)
  })
  afterAll(() => api.stop())

  test('type-checks the documented openapi-fetch example with no casts', async () => {
    const source = await Bun.file(join(EXAMPLES, 'openapi-fetch.ts')).text()
    expect(source).not.toMatch(/\bas\s+(unknown|any|never)\b|@ts-(ignore|expect-error)/)
    expect(await typecheck(join(EXAMPLES, 'openapi-fetch.ts'))).toBe('')
  }, 60_000)

  test('uploads a file and reads the result and its headers through the typed client', async () => {
    const example = await import(join(EXAMPLES, 'openapi-fetch.ts'))
    const client = example.imgapiClient(api.url)
    const photo = await fixture('photo-exif-orientation-6.jpg')
    const { webp, savedPercent } = await example.compressToWebp(
      client,
      new Blob([photo as Uint8Array<ArrayBuffer>]),
    )
    const decoded = await decode(await webp.arrayBuffer())
    expect(decoded.format).toBe('webp')
    expect(savedPercent).toBeGreaterThan(0)
    expect((await example.writableFormats(client)).sort()).toEqual([
      'avif',
      'gif',
      'jpeg',
      'png',
      'tiff',
      'webp',
    ])
  }, 60_000)
})

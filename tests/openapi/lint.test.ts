import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { ROOT } from '../helpers/paths.ts'
import { writeSpec } from './spec-file.ts'

interface SpectralResult {
  readonly code: string
  readonly severity: number
  readonly message: string
  readonly path: readonly (string | number)[]
}

/** Spectral, run as its users run it (a Node CLI), with one of the rulesets beside this file. */
async function lint(specPath: string, ruleset: string): Promise<SpectralResult[]> {
  const proc = Bun.spawn(
    [
      join(ROOT, 'node_modules/.bin/spectral'),
      'lint',
      specPath,
      '--ruleset',
      join(import.meta.dir, ruleset),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ],
    { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' },
  )
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  await proc.exited
  if (stdout.trim() === '') throw new Error(`spectral printed nothing; stderr: ${stderr}`)
  return JSON.parse(stdout)
}

const summary = (results: SpectralResult[]) =>
  results.map(
    (r) =>
      `${['error', 'warning', 'info', 'hint'][r.severity]} ${r.code} at ${r.path.join('.')}: ${r.message}`,
  )

describe('the OpenAPI document passes Spectral', () => {
  let api: Api
  let specPath: string
  beforeAll(async () => {
    api = await startApi()
    specPath = (await writeSpec(api)).path
  })
  afterAll(() => api.stop())

  test('with the standard OpenAPI rules (spectral:oas): no errors, no warnings', async () => {
    expect(summary(await lint(specPath, 'spectral-oas.yaml'))).toEqual([])
  }, 60_000)

  test('with the OWASP API security rules, except those its config lists with a reason', async () => {
    expect(summary(await lint(specPath, 'spectral-owasp.yaml'))).toEqual([])
  }, 60_000)
})

describe('the OpenAPI document of a server that requires API keys passes Spectral', () => {
  let api: Api
  let specPath: string
  beforeAll(async () => {
    api = await startApi({ apiKeys: 'a-key-of-at-least-some-length' })
    specPath = (await writeSpec(api)).path
  })
  afterAll(() => api.stop())

  test('with the standard OpenAPI rules: no errors, no warnings', async () => {
    expect(summary(await lint(specPath, 'spectral-oas.yaml'))).toEqual([])
  }, 60_000)

  test('with the OWASP rules, compress declaring its security scheme and its 401', async () => {
    const base = await Bun.file(join(import.meta.dir, 'spectral-owasp.yaml')).text()
    const keys = await Bun.file(join(import.meta.dir, 'spectral-owasp-keys.yaml')).text()
    await Bun.write(join(import.meta.dir, 'spectral-owasp-keys.generated.yaml'), `${base.trimEnd()}\n${keys}`)
    expect(summary(await lint(specPath, 'spectral-owasp-keys.generated.yaml'))).toEqual([])
  }, 60_000)
})

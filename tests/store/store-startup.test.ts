import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { createStore } from '../../src/store/index.ts'
import { spawnApi } from '../helpers/api.ts'
import { ROOT } from '../helpers/paths.ts'
import { freePort } from '../helpers/services.ts'

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIDSTARTUP', AWS_SECRET_ACCESS_KEY: 'startup-secret-never-shown' }

/** `bun src/index.ts` with only these variables: its exit code and what it printed. */
async function start(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/index.ts')], {
    env: { HOME: tmpdir(), IMGAPI_PORT: '0', IMGAPI_HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000)
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  clearTimeout(timer)
  return { code, output: stdout + stderr }
}

describe('start-up with IMGAPI_STORE', () => {
  test('refuses to start (exit 2) with no endpoint, naming the variables it reads', async () => {
    const { code, output } = await start({ IMGAPI_STORE: 's3://images/', AWS_REGION: 'us-east-1', ...KEYS })
    expect(code).toBe(2)
    expect(output).toContain('AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL')
    expect(output).not.toContain(KEYS.AWS_SECRET_ACCESS_KEY)
  })

  test('refuses to start with only the variables Bun would read itself (S3_ENDPOINT, AWS_ENDPOINT)', async () => {
    const { code, output } = await start({
      IMGAPI_STORE: 's3://images/',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      AWS_ENDPOINT: 'http://127.0.0.1:9',
      S3_REGION: 'us-east-1',
      ...KEYS,
    })
    expect(code).toBe(2)
    expect(output).toContain('an endpoint (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL)')
    expect(output).toContain('a region (AWS_REGION or AWS_DEFAULT_REGION)')
  })

  test('refuses to start with an endpoint and no region or keys', async () => {
    const { code, output } = await start({
      IMGAPI_STORE: 's3://images/',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    })
    expect(code).toBe(2)
    expect(output).toContain('a region')
    expect(output).toContain('an access key id (AWS_ACCESS_KEY_ID)')
    expect(output).toContain('a secret key')
  })

  test('IMGAPI_URL_S3 needs the same connection, and takes only s3:// places', () => {
    expect(() =>
      loadConfig({ env: { IMGAPI_URL_S3: 's3://images/public/', AWS_REGION: 'r', ...KEYS } }),
    ).toThrow(/IMGAPI_URL_S3 is set, so imgapi needs an endpoint \(AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL\)/)
    expect(() =>
      loadConfig({
        env: { IMGAPI_URL_S3: 'https://images/', AWS_ENDPOINT_URL: 'http://h', AWS_REGION: 'r', ...KEYS },
      }),
    ).toThrow(/IMGAPI_URL_S3 must be a comma-separated list of s3:\/\/bucket\/prefix\/ destinations/)
  })

  test('refuses a destination that is not an s3:// URL', () => {
    expect(() =>
      loadConfig({
        env: { IMGAPI_STORE: 'https://images/', AWS_ENDPOINT_URL: 'http://h', AWS_REGION: 'r', ...KEYS },
      }),
    ).toThrow(/IMGAPI_STORE must be a comma-separated list of s3:\/\/bucket\/prefix\/ destinations/)
  })

  test('takes AWS_ENDPOINT_URL_S3 over AWS_ENDPOINT_URL, AWS_REGION over AWS_DEFAULT_REGION, and the secret from its file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'imgapi-store-'))
    const file = join(dir, 'secret')
    writeFileSync(file, 'secret-from-file\n')
    const config = loadConfig({
      env: {
        IMGAPI_STORE: 's3://images/a/',
        AWS_ENDPOINT_URL_S3: 'http://s3.local:9000',
        AWS_ENDPOINT_URL: 'http://other.local',
        AWS_REGION: 'eu-west-3',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY_FILE: file,
      },
    })
    expect([config.storeEndpoint, config.storeRegion]).toEqual(['http://s3.local:9000', 'eu-west-3'])
    expect(createStore(config)).toBeDefined()
    rmSync(dir, { recursive: true, force: true })
    expect(() => createStore(config)).toThrow(/AWS_SECRET_ACCESS_KEY_FILE cannot be read \(ENOENT\)/)
  })

  test('leaves store off, whatever AWS variables are set, without IMGAPI_STORE', () => {
    expect(createStore(loadConfig({ env: { AWS_REGION: 'us-east-1', ...KEYS } }))).toBeUndefined()
  })

  test('starts with the standard variables, and its start-up line names the destinations, never a key', async () => {
    const api = await spawnApi({
      store: 's3://images/a/',
      storeEndpoint: `http://127.0.0.1:${freePort()}`,
      storeRegion: 'us-east-1',
      storeAccessKeyId: KEYS.AWS_ACCESS_KEY_ID,
      storeSecretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY,
    })
    try {
      expect(api.startup!.store.destinations).toBe('s3://images/a/')
      const line = JSON.stringify(api.startup)
      expect(line).not.toContain(KEYS.AWS_SECRET_ACCESS_KEY)
      expect(line).not.toContain(KEYS.AWS_ACCESS_KEY_ID)
    } finally {
      await api.stop()
    }
  })
})

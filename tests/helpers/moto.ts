import { afterAll, beforeAll } from 'bun:test'
import { S3Client } from 'bun'
import { existsSync } from 'node:fs'
import type { Config } from '../../src/config.ts'
import { freePort, waitUntil } from './services.ts'

/** Where CI machines have it (pyenv's shim), when it is not on PATH. */
const PYENV_SHIM = '/root/.pyenv/shims/moto_server'

/**
 * moto_server, the S3 protocol on loopback. CI has it (.ci/run checks), so there a missing one
 * fails the run; elsewhere the suite prints that it was skipped.
 */
export function requireMoto(suite: string): string | undefined {
  const path = Bun.which('moto_server') ?? (existsSync(PYENV_SHIM) ? PYENV_SHIM : undefined)
  if (path) return path
  if (process.env.CI) throw new Error('moto_server is missing: .ci/run checks for it at the pyenv shim')
  console.warn(`[skipped] ${suite}: moto_server not found`)
  return undefined
}

export const MOTO_KEYS = { accessKeyId: 'AKIDMOTOTEST', secretAccessKey: 'moto-secret-never-logged' }
export const MOTO_REGION = 'us-east-1'

/** A real moto_server on a free loopback port, stoppable mid-suite (storage going down). */
export class MotoServer {
  readonly port = freePort()
  readonly endpoint = `http://127.0.0.1:${this.port}`
  #process: ReturnType<typeof Bun.spawn> | undefined

  constructor(private readonly binary: string) {}

  async start(): Promise<void> {
    this.#process = Bun.spawn([this.binary, '-H', '127.0.0.1', '-p', String(this.port)], {
      stdout: 'ignore',
      stderr: 'ignore',
    })
    await waitUntil(() => this.#answers(), `moto_server on port ${this.port}`, 30_000)
  }

  async stop(): Promise<void> {
    this.#process?.kill('SIGKILL')
    await this.#process?.exited
    this.#process = undefined
  }

  async createBucket(name: string): Promise<void> {
    const response = await fetch(`${this.endpoint}/${name}`, { method: 'PUT' })
    if (!response.ok) throw new Error(`moto refused bucket ${name}: ${response.status}`)
  }

  /** The server's settings for storing into these buckets, each destination as given. */
  config(store: string): Partial<Config> {
    return {
      store,
      storeEndpoint: this.endpoint,
      storeRegion: MOTO_REGION,
      storeAccessKeyId: MOTO_KEYS.accessKeyId,
      storeSecretAccessKey: MOTO_KEYS.secretAccessKey,
    }
  }

  client(bucket: string): S3Client {
    return new S3Client({ ...MOTO_KEYS, region: MOTO_REGION, endpoint: this.endpoint, bucket })
  }

  /** An object read back signed (moto refuses anonymous reads): its status, headers and bytes. */
  async read(
    bucket: string,
    key: string,
  ): Promise<{ status: number; headers: Headers; bytes: Uint8Array<ArrayBuffer> }> {
    const response = await fetch(this.client(bucket).presign(key, { method: 'GET', expiresIn: 60 }))
    return {
      status: response.status,
      headers: response.headers,
      bytes: new Uint8Array(await response.arrayBuffer()),
    }
  }

  /** Every key in a bucket. */
  async keys(bucket: string): Promise<string[]> {
    const listed = await this.client(bucket).list()
    return (listed.contents ?? []).map((entry) => entry.key)
  }

  async #answers(): Promise<boolean> {
    try {
      return (await fetch(`${this.endpoint}/`)).status < 500
    } catch {
      return false
    }
  }
}

/** A moto_server for the enclosing describe block, with these buckets, stopped after it. */
export function motoForSuite(binary: string, buckets: readonly string[]): MotoServer {
  const server = new MotoServer(binary)
  beforeAll(async () => {
    await server.start()
    for (const bucket of buckets) await server.createBucket(bucket)
  }, 60_000)
  afterAll(() => server.stop())
  return server
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A loopback port nothing listens on right now. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

/**
 * Whether a Debian-packaged program the integration suites drive is here. CI installs them all
 * (.ci/run), so there a missing one fails the run; elsewhere the suite says it was skipped.
 */
export function requireProgram(program: string, debianPackage: string, suite: string): string | undefined {
  const path = Bun.which(program) ?? Bun.which(program, { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' })
  if (path) return path
  if (process.env.CI)
    throw new Error(`${program} is missing: .ci/run installs the Debian package ${debianPackage}`)
  console.warn(`[skipped] ${suite}: ${program} is not installed (Debian package ${debianPackage})`)
  return undefined
}

export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await Bun.sleep(25)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

/** A real redis-server on a loopback port, with no persistence, that can be stopped and started again. */
export class RedisServer {
  readonly port = freePort()
  readonly url: string
  readonly #dir = mkdtempSync(join(tmpdir(), 'imgapi-redis-'))
  #process: ReturnType<typeof Bun.spawn> | undefined

  constructor(
    private readonly binary: string,
    readonly password = '',
  ) {
    this.url = password
      ? `redis://:${encodeURIComponent(password)}@127.0.0.1:${this.port}`
      : `redis://127.0.0.1:${this.port}`
  }

  async start(): Promise<void> {
    const args = [
      this.binary,
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      this.#dir,
      ...(this.password ? ['--requirepass', this.password] : []),
    ]
    this.#process = Bun.spawn(args, { stdout: 'ignore', stderr: 'ignore' })
    await waitUntil(() => this.#accepts(), `redis-server on port ${this.port}`)
  }

  async stop(): Promise<void> {
    this.#process?.kill('SIGKILL')
    await this.#process?.exited
    this.#process = undefined
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as when it hangs. */
  pause(): void {
    this.#process?.kill('SIGSTOP')
  }

  resume(): void {
    this.#process?.kill('SIGCONT')
  }

  async dispose(): Promise<void> {
    this.resume()
    await this.stop()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  async #accepts(): Promise<boolean> {
    try {
      const socket = await Bun.connect({ hostname: '127.0.0.1', port: this.port, socket: { data() {} } })
      socket.end()
      return true
    } catch {
      return false
    }
  }
}

/*
 * One HTTP/1.1 connection driven by hand (hostile heads, bodies at full speed, trickles,
 * keep-alive), on Bun's own sockets. tests/helpers/raw-http.ts uses node:net, which is right
 * for small requests; but under Bun 1.4.5, when a write fails with EPIPE because the server
 * answered early and closed (a 503 before the body was read), node:net drops the response that
 * had already arrived, and a flood of refused uploads would be counted as resets. Bun.connect
 * delivers every byte received before it reports the close.
 */
import type { Socket } from 'bun'
import { parseResponses, type RawResponse } from '../../tests/helpers/raw-http.ts'

export interface ConnectionEnd {
  /** The server closed or reset it (rather than this side). */
  readonly byServer: boolean
  readonly error?: string
}

const HEAD_END = Buffer.from('\r\n\r\n')
/** At most this much per write call, so one connection's 30 MiB body cannot hold the event loop. */
const WRITE_BYTES = 1024 * 1024

/** Where the first response in `bytes` ends, once its head has arrived; responses carry Content-Length. */
function responseEnd(bytes: Buffer): number | undefined {
  const headEnd = bytes.indexOf(HEAD_END)
  if (headEnd === -1) return undefined
  const head = bytes.subarray(0, headEnd).toString('latin1')
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  return headEnd + HEAD_END.length + Number(length?.[1] ?? 0)
}

export class RawConnection {
  #socket: Socket | undefined
  #received: Buffer[] = []
  #receivedBytes = 0
  /** Where the response being received ends, once its head is in. */
  #responseEnd: number | undefined
  #unsent: Uint8Array[] = []
  #end: ConnectionEnd | undefined
  #closing = false
  /** Called on every event that may complete a wait: data, drain, close. */
  #wake = new Set<() => void>()

  /** Connects; rejects when the server refuses the connection. */
  static async open(baseUrl: string): Promise<RawConnection> {
    const connection = new RawConnection()
    const { hostname, port } = new URL(baseUrl)
    connection.#socket = await Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        data: (_socket, chunk) => connection.#onData(chunk),
        drain: () => connection.#pump(),
        end: () => connection.#onEnd(undefined),
        close: (_socket, error) => connection.#onEnd(error),
        error: (_socket, error) => connection.#onEnd(error),
      },
    })
    return connection
  }

  get end(): ConnectionEnd | undefined {
    return this.#end
  }

  /** Queues bytes; resolves true once the kernel has taken them all, false if the connection ended first. */
  send(data: Uint8Array | string): Promise<boolean> {
    if (this.#end) return Promise.resolve(false)
    this.#unsent.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    this.#pump()
    const done = () => (this.#end ? false : this.#unsent.length === 0 ? true : undefined)
    return this.#until(done).then((sent) => sent === true)
  }

  /** The next whole response, in order; undefined if the connection ends or `timeoutMs` passes first. */
  async nextResponse(timeoutMs: number): Promise<RawResponse | undefined> {
    const end = await this.#until(() => this.#completeAt() ?? (this.#end ? -1 : undefined), timeoutMs)
    if (end === undefined || end === -1) return undefined
    const all = Buffer.concat(this.#received, this.#receivedBytes)
    this.#received = [all.subarray(end)]
    this.#receivedBytes -= end
    this.#responseEnd = undefined
    return parseResponses(all.subarray(0, end).toString('latin1'))[0]
  }

  /** Resolves when the connection has ended, or after `timeoutMs` (then undefined). */
  closed(timeoutMs: number): Promise<ConnectionEnd | undefined> {
    return this.#until(() => this.#end, timeoutMs)
  }

  close(): void {
    this.#closing = true
    this.#socket?.end()
  }

  #completeAt(): number | undefined {
    // Chunks are joined only until the head is found, so a large body is not copied per chunk.
    if (this.#responseEnd === undefined && this.#receivedBytes > 0) {
      if (this.#received.length > 1) this.#received = [Buffer.concat(this.#received, this.#receivedBytes)]
      this.#responseEnd = responseEnd(this.#received[0]!)
    }
    const end = this.#responseEnd
    return end !== undefined && end <= this.#receivedBytes ? end : undefined
  }

  #pump(): void {
    while (this.#socket && this.#unsent.length > 0 && !this.#end) {
      const next = this.#unsent[0]!
      const piece = next.subarray(0, WRITE_BYTES)
      const written = Math.max(0, this.#socket.write(piece))
      if (written === next.byteLength) this.#unsent.shift()
      else this.#unsent[0] = next.subarray(written)
      // The kernel is full: the rest waits for the next drain.
      if (written < piece.byteLength) break
    }
    this.#notify()
  }

  #onData(chunk: Buffer): void {
    this.#received.push(chunk)
    this.#receivedBytes += chunk.byteLength
    this.#notify()
  }

  #onEnd(error: Error | undefined): void {
    const code = error ? ((error as NodeJS.ErrnoException).code ?? error.message) : undefined
    this.#end ??= { byServer: !this.#closing, ...(code ? { error: code } : {}) }
    this.#socket?.end()
    this.#notify()
  }

  #notify(): void {
    for (const wake of [...this.#wake]) wake()
  }

  /** Waits until `check` returns a value; undefined on timeout. */
  #until<T>(check: () => T | undefined, timeoutMs = 2 ** 31 - 1): Promise<T | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), timeoutMs)
      const finish = (value: T | undefined) => {
        clearTimeout(timer)
        this.#wake.delete(wake)
        resolve(value)
      }
      const wake = () => {
        const value = check()
        if (value !== undefined) finish(value)
      }
      this.#wake.add(wake)
      wake()
    })
  }
}

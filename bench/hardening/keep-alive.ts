/*
 * A client that keeps its connection between requests, as browsers and proxies do, and opens a
 * new one when the server answered `Connection: close` or went away. Several of them side by side
 * make "N concurrent connections, each posting back to back".
 */
import { RawConnection } from './raw-connection.ts'
import { ask, errorCode, failure, requestHead, type Answer } from './requests.ts'

export interface LaneAnswer extends Answer {
  /** Sent on a connection that had already carried a request. */
  readonly reused: boolean
}

export class KeepAliveClient {
  #connection: RawConnection | undefined

  constructor(private readonly baseUrl: string) {}

  async post(target: string, body: Uint8Array, headers: Record<string, string> = {}): Promise<LaneAnswer> {
    const started = performance.now()
    const reused = this.#connection !== undefined && this.#connection.end === undefined
    if (!reused) {
      try {
        this.#connection = await RawConnection.open(this.baseUrl)
      } catch (error) {
        this.#connection = undefined
        return { ...failure(errorCode(error, 'refused'), started), reused }
      }
    }
    const connection = this.#connection!
    const head = requestHead('POST', target, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': body.byteLength,
      ...headers,
    })
    const answer = await ask(connection, [head, body], started)
    if (answer.error || answer.connectionClose) this.close()
    return { ...answer, reused }
  }

  close(): void {
    this.#connection?.close()
    this.#connection = undefined
  }
}

/**
 * Runs `lanes` loops side by side, each calling `job` back to back until `durationMs` has
 * passed; requests in flight then finish (each is bounded by its own timeout).
 */
export async function runLanes(
  lanes: number,
  durationMs: number,
  job: (lane: number, iteration: number) => Promise<void>,
): Promise<void> {
  const deadline = performance.now() + durationMs
  const loop = async (lane: number) => {
    for (let i = 0; performance.now() < deadline; i++) await job(lane, i)
  }
  await Promise.all(Array.from({ length: lanes }, (_, lane) => loop(lane)))
}

/*
 * The health prober, on its own thread so that an attack keeping the benchmark's main thread
 * busy (writing gigabytes, parsing answers) cannot delay a probe and be blamed on the server.
 * One probe at a time, PROBE_EVERY_MS after the previous one ended, each on a fresh connection
 * with `Connection: close` as a load balancer's check would be; PROBE_TIMEOUT_MS bounds each.
 */
import { RawConnection } from './raw-connection.ts'
import { ask, errorCode, failure, requestHead, type Answer } from './requests.ts'

export const PROBE_EVERY_MS = 100
export const PROBE_TIMEOUT_MS = 5_000

export interface Probe {
  /** Epoch milliseconds (performance.timeOrigin + now), comparable across threads. */
  readonly at: number
  readonly ms: number
  readonly status?: number
  /** The body's `status`: ok, degraded or draining. */
  readonly health?: string
  readonly error?: string
  readonly uploadsBytes?: number
  readonly waiting?: number
  readonly running?: number
  readonly decodeBytes?: number
}

export type ProbeCommand = { readonly type: 'start'; readonly baseUrl: string } | { readonly type: 'stop' }

const HEAD = requestHead('GET', '/api/health', { Connection: 'close' })

async function connect(baseUrl: string): Promise<RawConnection | string> {
  const timeout = Bun.sleep(PROBE_TIMEOUT_MS).then(() => 'timeout')
  return Promise.race([RawConnection.open(baseUrl), timeout]).catch((error) => errorCode(error, 'refused'))
}

async function probeOnce(baseUrl: string): Promise<Probe> {
  const started = performance.now()
  const at = performance.timeOrigin + started
  const connection = await connect(baseUrl)
  if (typeof connection === 'string') return { at, ...failure(connection, started) }
  const remaining = PROBE_TIMEOUT_MS - (performance.now() - started)
  const answer: Answer = await ask(connection, [HEAD], started, remaining)
  connection.close()
  return { at, ms: answer.ms, ...(answer.error ? { error: answer.error } : {}), ...figures(answer) }
}

function figures(answer: Answer): Partial<Probe> {
  if (answer.status === undefined) return {}
  try {
    const body = JSON.parse(answer.body)
    return {
      status: answer.status,
      health: body.status,
      uploadsBytes: body.uploads?.usedBytes,
      waiting: body.queue?.waiting,
      running: body.queue?.running,
      decodeBytes: body.queue?.memoryBytes?.used,
    }
  } catch {
    return { status: answer.status }
  }
}

// This file runs as a Worker; lib.dom types the global `self` as a Window, hence the cast.
const scope = globalThis as unknown as Worker
let running = false

scope.onmessage = async (event: MessageEvent<ProbeCommand>) => {
  if (event.data.type === 'stop') {
    running = false
    return
  }
  running = true
  const probes: Probe[] = []
  while (running) {
    probes.push(await probeOnce(event.data.baseUrl))
    await Bun.sleep(PROBE_EVERY_MS)
  }
  scope.postMessage(probes)
}

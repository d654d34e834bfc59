import type { Serve, Server } from 'bun'
import { liveResponse } from './live-response.ts'
import { requestPath } from './request-target.ts'

/**
 * The server's socket options, declared once: the early listener opens the socket with them and
 * createApp gives them to Elysia for servers that tests start with `app.listen`.
 */
export const SERVE_OPTIONS = {
  // Bun's own limit answers with an empty 413; ours (read-body.ts) answers in JSON, so Bun's is
  // set far above it and never decides.
  maxRequestBodySize: 2 ** 40,
  // Bun's development mode answers uncaught errors with an HTML page of stack frames and source
  // lines; it must never be on, whatever NODE_ENV says.
  development: false,
} as const

/** What Elysia's own listen would add; kept so the hand-over changes nothing about the socket. */
const ELYSIA_DEFAULTS = { reusePort: true, idleTimeout: 30 } as const

type Handler = (request: Request, server: Server<undefined>) => Response | Promise<Response>
type ErrorHandler = Parameters<Server<undefined>['reload']>[0]['error']

export interface EarlyListener {
  readonly server: Server<undefined>
  /** From now on every request goes to the app; requests held so far are given to it too. */
  handOver(fetch: Handler, error?: ErrorHandler): void
}

/**
 * Opens the socket before the slow part of start-up (verifying libvips, loading the modules,
 * the first codec check, building the app): liveness probes are answered as soon as the event
 * loop turns, and any other request waits for the app instead of being refused. The app then
 * takes over the same socket (Bun's `server.reload`), so no connection is dropped in between.
 * A held request is answered asynchronously, so a request pipelined behind it on the same
 * connection can lose its answer (Bun's bug, see tests/http/pipelining.test.ts): only in the
 * first tenth of a second, and only for clients that pipeline.
 */
export function listenEarly(port: number, hostname: string): EarlyListener {
  let app: Handler | undefined
  const held: (() => void)[] = []
  const server = listenOr({
    ...SERVE_OPTIONS,
    ...ELYSIA_DEFAULTS,
    port,
    hostname,
    fetch(request, server) {
      if (app) return app(request, server)
      if (requestPath(request) === '/livez') return liveResponse()
      return new Promise<Response>((resolve) => held.push(() => resolve(app!(request, server))))
    },
    // Only the hand-over's own code runs here; whatever throws after it is the app's to answer.
    error: () => new Response(null, { status: 500 }),
  })
  return {
    server,
    handOver(fetch, error) {
      app = fetch
      server.reload({ fetch, ...(error ? { error } : {}) })
      for (const release of held.splice(0)) release()
    },
  }
}

/** The address cannot be listened on: a one-line start-up failure, like a bad setting. */
export class ListenError extends Error {}

const WHY: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use; choose another with --port or IMGAPI_PORT',
  EACCES: 'not allowed (ports under 1024 need privileges); choose another with --port or IMGAPI_PORT',
  EADDRNOTAVAIL: 'no such address on this machine; set --host or IMGAPI_HOST',
}

function listenOr(options: Serve.Options<undefined> & { port: number; hostname: string }): Server<undefined> {
  try {
    return Bun.serve(options)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    const why = WHY[code] ?? (error as Error).message
    throw new ListenError(`cannot listen on ${options.hostname}:${options.port} (${code || 'error'}): ${why}`)
  }
}

/** One turn of the event loop, so the early listener can answer between start-up steps. */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve))

import type { Config } from './config.ts'
import type { Lifecycle } from './lifecycle.ts'
import type { Logger } from './log.ts'

/** What a shutdown stops, in the order it stops them. */
export interface ShutdownParts {
  readonly config: Pick<Config, 'shutdownTimeoutMs'>
  readonly lifecycle: Lifecycle
  readonly logger: Logger
  /** Stops accepting; resolves once the requests in flight are answered. */
  readonly server: { stop(closeActiveConnections?: boolean): Promise<void> }
  /** Resolves once the jobs in flight have ended. */
  readonly executor: { stop(): Promise<void> }
  /** The keys file watcher and the Redis connection, which requests use until they end. */
  readonly access: { close(): void }
  /** process.exit for the server; a test observes the sequence without ending its own process. */
  readonly exit: (code: number) => void
}

/**
 * SIGTERM: keep serving for the drain delay (health answers 503 "draining", every response
 * carries Connection: close, so load balancers and keep-alive clients move away), then stop
 * accepting, finish what is in flight (bounded), close what the requests used, and exit 0.
 * SIGINT (Ctrl-C) skips the delay. The watcher and Redis are closed only after the drain: a
 * request still in flight may check its key or take its rate limit until it is answered, and a
 * process that exits with them open leaves Redis a connection to time out rather than one closed.
 */
export function createShutdown(parts: ShutdownParts): (signal: string, delayMs: number) => Promise<void> {
  const { config, lifecycle, logger } = parts
  return async (signal, delayMs) => {
    if (lifecycle.draining) return
    lifecycle.startDraining()
    logger.info('draining', { signal, drainDelayMs: delayMs })
    await Bun.sleep(delayMs)
    const forced = setTimeout(() => {
      logger.warn('shutdown timeout reached; exiting with requests still in flight', {
        timeoutMs: config.shutdownTimeoutMs,
      })
      parts.exit(0)
    }, config.shutdownTimeoutMs)
    await parts.server.stop(false)
    await parts.executor.stop()
    parts.access.close()
    clearTimeout(forced)
    logger.info('stopped', { signal })
    parts.exit(0)
  }
}

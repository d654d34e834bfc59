import { createApp } from './app.ts'
import type { Config } from './config.ts'
import { Lifecycle } from './lifecycle.ts'
import type { Logger } from './log.ts'
import { VERSION } from './version.ts'

/** Listens, logs the start-up line, and drains on SIGTERM/SIGINT. */
export function startServer(config: Config, logger: Logger): void {
  const lifecycle = new Lifecycle()
  const app = createApp(config, { lifecycle, logger })
  app.listen({ port: config.port, hostname: config.host })

  const server = app.server!
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${shownHost}:${server.port}`
  logger.notice(`imgapi ${VERSION} listening on ${url} (API ${url}/api, reference ${url}/swagger)`, {
    version: VERSION,
    address: `${config.host}:${server.port}`,
    limits: {
      maxUploadBytes: config.maxUploadBytes,
      maxInputPixels: config.maxInputPixels,
      maxOutputDimension: config.maxOutputDimension,
      maxFrames: config.maxFrames,
      workers: config.workers,
      queueLength: config.queueLength,
      jobTimeoutMs: config.jobTimeoutMs,
    },
  })

  /** Stop accepting, let in-flight requests finish (bounded), then exit 0. */
  async function shutdown(signal: string) {
    if (lifecycle.draining) return
    lifecycle.startDraining()
    logger.info('draining', { signal })
    const forced = setTimeout(() => {
      logger.warn('shutdown timeout reached; exiting with requests still in flight', {
        timeoutMs: config.shutdownTimeoutMs,
      })
      process.exit(0)
    }, config.shutdownTimeoutMs)
    await server.stop(false)
    clearTimeout(forced)
    logger.info('stopped', { signal })
    process.exit(0)
  }

  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

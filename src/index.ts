import { createApp } from './app.ts'
import { helpText } from './cli-help.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { Lifecycle } from './lifecycle.ts'
import { createLogger } from './log.ts'
import { VERSION } from './version.ts'

const argv = process.argv.slice(2)
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(helpText())
  process.exit(0)
}
if (argv.includes('--version')) {
  console.log(VERSION)
  process.exit(0)
}

let config: Config
try {
  config = loadConfig({ argv, env: process.env })
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`imgapi: ${error.message}`)
  process.exit(2)
}

const logger = createLogger(config.logLevel)
const lifecycle = new Lifecycle()
const app = createApp(config, { lifecycle, logger })
app.listen({ port: config.port, hostname: config.host })

const server = app.server!
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
const url = `http://${shownHost}:${server.port}`
logger.info(`imgapi ${VERSION} listening on ${url} (API ${url}/api, reference ${url}/swagger)`, {
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
  logger.info('draining', { signal, running: 0 })
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

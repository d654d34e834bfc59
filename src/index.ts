import { KeyFileError } from './access/api-keys.ts'
import { runKeysCommand } from './access/new-key.ts'
import { helpText } from './cli-help.ts'
import { ConfigError, loadConfig, unknownEnvSettings } from './config.ts'
import { ListenError, listenEarly, yieldToRequests } from './http/early-listener.ts'
import { NativeLibraryError, prepareEmbeddedLibvips } from './image/native/libvips-loader.ts'
import { WORKER_CONFIG_ENV, type WorkerConfig } from './jobs/messages.ts'
import { runCompressCommand } from './cli/compress-command.ts'
import { writeOut } from './cli/stdout.ts'
import { licensesText } from './licenses.ts'
import { createLogger } from './log.ts'
import { VERSION } from './version.ts'

/**
 * Entry point only. Nothing here imports sharp statically: inside the single executable the
 * embedded libvips must be loaded before sharp's native module looks for it.
 */
async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--worker') return startWorker()
  if (argv[0] === 'keys') process.exit(runKeysCommand(argv.slice(1)))
  if (argv[0] === 'compress') process.exit(await runCompressCommand(argv.slice(1)))
  if (argv.includes('--help') || argv.includes('-h')) return console.log(helpText())
  if (argv.includes('--version')) return console.log(VERSION)
  if (argv.includes('--licenses')) return writeOut(await licensesText())
  const config = loadConfig({ argv, env: process.env })
  // Listening first: /livez answers between the steps below, other requests wait for the app.
  const listener = listenEarly(config.port, config.host)
  await yieldToRequests()
  prepareEmbeddedLibvips(config.libDir)
  await yieldToRequests()
  // The codec check encodes on libvips' threads while this thread loads the rest of the server.
  const { createCodecMonitor } = await import('./image/self-test.ts')
  const codecs = createCodecMonitor()
  void codecs.first()
  await yieldToRequests()
  const { startServer } = await import('./server.ts')
  const logger = createLogger(config.logLevel)
  for (const name of unknownEnvSettings(process.env))
    logger.warn('ignoring an environment variable that names no setting', { name })
  await startServer(config, logger, { codecs, listener })
}

/** A worker process, started by the server with its settings in the environment (jobs/start-pool.ts). */
async function startWorker(): Promise<void> {
  const config = JSON.parse(process.env[WORKER_CONFIG_ENV] ?? 'null') as WorkerConfig | null
  if (!config) throw new ConfigError(`--worker is started by the server, with ${WORKER_CONFIG_ENV} set`)
  prepareEmbeddedLibvips(config.libDir)
  const { runWorker } = await import('./jobs/worker-main.ts')
  await runWorker(config)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof NativeLibraryError || error instanceof ListenError) {
    console.error(`imgapi: ${error.message}`)
    process.exit(2)
  }
  if (error instanceof KeyFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
    console.error(`imgapi: IMGAPI_API_KEYS_FILE: ${(error as Error).message}`)
    process.exit(2)
  }
  throw error
})

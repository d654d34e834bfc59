import { createApp, createContext } from './app.ts'
import type { Config } from './config.ts'
import { API_PREFIX, endpointOf, REFERENCE_PATH } from './endpoints.ts'
import { Lifecycle } from './lifecycle.ts'
import type { Logger } from './log.ts'
import { VERSION } from './version.ts'
import { createCodecMonitor, type CodecMonitor } from './image/self-test.ts'
import { planMemory } from './memory-plan.ts'
import type { Metrics } from './metrics/metrics.ts'
import { InProcessExecutor } from './image/executor.ts'
import { WorkerPool } from './jobs/pool.ts'
import { listenEarly, type EarlyListener } from './http/early-listener.ts'
import { createWorkerPool } from './jobs/start-pool.ts'
import { createShutdown } from './shutdown.ts'
import { startupLimits } from './startup-limits.ts'

export interface StartOptions {
  /** Started in index.ts before the slow steps; the app takes its socket over. */
  readonly codecs?: CodecMonitor
  readonly listener?: EarlyListener
}

/** Listens, logs the start-up line, and drains on SIGTERM/SIGINT. */
export async function startServer(config: Config, logger: Logger, options: StartOptions = {}): Promise<void> {
  const codecs = options.codecs ?? createCodecMonitor()
  const listener = options.listener ?? listenEarly(config.port, config.host)
  const lifecycle = new Lifecycle()
  // The pool exists before the metrics it reports to: its events find them once they do.
  let metrics: Metrics | undefined
  const executor = config.inProcessJobs
    ? new InProcessExecutor()
    : createWorkerPool(config, logger, {
        stopped: (reason, job) => metrics?.workerStopped(reason, job.probe.format),
        restarted: () => metrics?.workerRestarted(),
        recycled: () => metrics?.workerRecycled(),
      })
  const context = createContext(config, { lifecycle, logger, codecs, executor })
  metrics = context.metrics
  const app = createApp(config, context)
  const shutdown = createShutdown({
    config,
    lifecycle,
    logger,
    server: listener.server,
    executor,
    access: context.access,
    exit: (code) => process.exit(code),
  })
  // Before listening: a signal that arrives before its handler is installed gets the default
  // action, which for SIGHUP is to end the process.
  process.on('SIGTERM', () => void shutdown('SIGTERM', config.drainDelayMs))
  process.on('SIGINT', () => void shutdown('SIGINT', 0))
  // A hang-up must not end the service: it reloads the API keys file (a no-op without one).
  process.on('SIGHUP', () => context.access.keys.reload('SIGHUP'))
  // The app takes requests only once the codecs have proved themselves (the check started in
  // index.ts and ran on libvips' threads while the modules loaded), so health never waits on
  // it: Bun loses a pipelined response queued behind an asynchronous handler
  // (tests/http/pipelining.test.ts). Until then the early listener holds what arrives.
  await codecs.first()
  const server = listener.server
  // The app's handlers reach the server (client addresses, per-request timeouts) through it.
  app.server = server
  listener.handOver(app.fetch, app.config.serve?.error)
  // After the hand-over: the workers warm in the background while the server already answers.
  if (config.warmWorkers && executor instanceof WorkerPool) executor.warmUp()

  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const url = `http://${shownHost}:${server.port}`
  const memory = planMemory(config)
  logger.notice(
    `imgapi ${VERSION} listening on ${url} (API ${url}${API_PREFIX}, reference ${url}${REFERENCE_PATH})`,
    {
      version: VERSION,
      address: `${config.host}:${server.port}`,
      limits: startupLimits(config, {
        rateLimit: config.rateLimit ? `${config.rateLimit}/${config.rateWindowMs}ms` : 'off',
        maxClientJobs: context.clientJobs.cap,
      }),
      apiKeys: context.access.keys.enabled ? `required for POST ${endpointOf('compress').path}` : 'off',
      rateLimitStore: config.redisUrl ? 'redis' : 'memory',
      // Where store writes, said once: the destinations and the endpoint's origin, never a key.
      store: context.store
        ? { destinations: config.store, endpoint: new URL(config.storeEndpoint).origin }
        : 'off',
      memory,
    },
  )
}

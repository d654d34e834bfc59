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
      })
  const context = createContext(config, { lifecycle, logger, codecs, executor })
  metrics = context.metrics
  const app = createApp(config, context)
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
      limits: {
        maxUploadBytes: config.maxUploadBytes,
        maxInputPixels: config.maxInputPixels,
        maxOutputPixels: config.maxOutputPixels,
        maxOutputDimension: config.maxOutputDimension,
        maxFrames: config.maxFrames,
        workers: config.workers,
        queueLength: config.queueLength,
        jobTimeoutMs: config.jobTimeoutMs,
        uploadTimeoutMs: config.uploadTimeoutMs,
        rateLimit: config.rateLimit ? `${config.rateLimit}/${config.rateWindowMs}ms` : 'off',
        maxClientJobs: context.clientJobs.cap,
      },
      apiKeys: context.access.keys.enabled ? `required for POST ${endpointOf('compress').path}` : 'off',
      rateLimitStore: config.redisUrl ? 'redis' : 'memory',
      memory,
    },
  )

  /**
   * SIGTERM: keep serving for the drain delay (health answers 503 "draining", every response
   * carries Connection: close, so load balancers and keep-alive clients move away), then stop
   * accepting, finish what is in flight (bounded), and exit 0. SIGINT (Ctrl-C) skips the delay.
   */
  async function shutdown(signal: string, delayMs: number) {
    if (lifecycle.draining) return
    lifecycle.startDraining()
    logger.info('draining', { signal, drainDelayMs: delayMs })
    await Bun.sleep(delayMs)
    const forced = setTimeout(() => {
      logger.warn('shutdown timeout reached; exiting with requests still in flight', {
        timeoutMs: config.shutdownTimeoutMs,
      })
      process.exit(0)
    }, config.shutdownTimeoutMs)
    await server.stop(false)
    await executor.stop()
    clearTimeout(forced)
    logger.info('stopped', { signal })
    process.exit(0)
  }
}

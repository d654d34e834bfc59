import { Elysia } from 'elysia'
import { AccessControl } from './access/access-control.ts'
import { KeySource } from './access/key-source.ts'
import type { AppContext } from './app-context.ts'
import type { Config } from './config.ts'
import { parseCorsOrigins } from './http/cors.ts'
import { clientJobCap, ClientJobs } from './http/client-jobs.ts'
import { SERVE_OPTIONS } from './http/early-listener.ts'
import { guard } from './http/guard.ts'
import { createRequestHooks } from './http/request-hooks.ts'
import { UploadBudget } from './http/upload-budget.ts'
import { configureDecoders } from './image/decoders/index.ts'
import { JobQueue } from './image/queue.ts'
import { InProcessExecutor } from './image/executor.ts'
import { createCodecMonitor } from './image/self-test.ts'
import { Lifecycle } from './lifecycle.ts'
import { createLogger } from './log.ts'
import { planMemory } from './memory-plan.ts'
import { Metrics, type RedisCall } from './metrics/metrics.ts'
import { routeLabeler } from './metrics/route-label.ts'
import { RateLimiter } from './rate/rate-limiter.ts'
import { systemResolve, UrlSources } from './source/index.ts'
import { createObjectReader, createStore } from './store/index.ts'
import { engineVersions } from './image/sharp.ts'
import { VERSION } from './version.ts'
import { compressRoutes } from './routes/compress.ts'
import { docsSiteRoutes } from './routes/docs-site.ts'
import { formatsRoutes } from './routes/formats.ts'
import { faviconRoutes } from './routes/favicon.ts'
import { healthRoutes } from './routes/health.ts'
import { livezRoutes } from './routes/livez.ts'
import { metricsRoutes } from './routes/metrics.ts'
import { swaggerRoutes } from './routes/swagger.ts'
import { toolsRoutes } from './routes/tools.ts'

export function createContext(config: Config, overrides: Partial<AppContext> = {}): AppContext {
  configureDecoders(config)
  const memory = planMemory(config)
  const logger = overrides.logger ?? createLogger(config.logLevel)
  const queue =
    overrides.queue ??
    new JobQueue({
      workers: config.workers,
      capacity: config.queueLength,
      memoryBudgetBytes: memory.decodeBudgetBytes,
    })
  const uploads = overrides.uploads ?? new UploadBudget(memory.uploadBudgetBytes)
  const lifecycle = overrides.lifecycle ?? new Lifecycle()
  const codecs = overrides.codecs ?? createCodecMonitor()
  let redisError: (call: RedisCall) => void = () => {}
  const access =
    overrides.access ??
    new AccessControl(
      config,
      KeySource.open(config.apiKeys, config.apiKeysFile, logger),
      new RateLimiter(config, logger, (call) => redisError(call)),
    )
  const executor = overrides.executor ?? new InProcessExecutor()
  const metrics =
    overrides.metrics ??
    new Metrics({
      queue: () => queue.stats,
      workers: config.workers,
      uploads: () => ({ usedBytes: uploads.usedBytes, budgetBytes: uploads.budgetBytes }),
      redisUp: () => {
        const redis = access.limiter.dependency
        return redis ? redis.status === 'up' : undefined
      },
      codecs: () => codecs.current(),
      draining: () => lifecycle.draining,
      workersAlive: () => executor.status().alive,
      build: { version: VERSION, ...engineVersions() },
    })
  redisError = (call) => metrics.redisError(call)
  return {
    config,
    memory,
    queue,
    executor,
    uploads,
    lifecycle,
    logger,
    cors: parseCorsOrigins(config.corsOrigins),
    codecs,
    access,
    metrics,
    clientJobs: new ClientJobs(clientJobCap(config.maxClientJobs, config.workers, config.queueLength)),
    urlSources: overrides.urlSources ?? new UrlSources(config, systemResolve, createObjectReader(config)),
    store: 'store' in overrides ? overrides.store : createStore(config),
    ...overrides,
  }
}

/** Builds the whole service as a value; it never listens (see index.ts). */
export function createApp(config: Config, overrides: Partial<AppContext> = {}) {
  const context = createContext(config, overrides)
  const { logger } = context
  const methodsByPath = new Map<string, string[]>()
  const methodsFor = (path: string) => methodsByPath.get(path) ?? []
  // Built on first use, once every route below is registered.
  let labeler: ((pathname: string) => string) | undefined
  const routeOf = (pathname: string) => (labeler ??= routeLabeler(methodsByPath.keys()))(pathname)
  const hooks = createRequestHooks(context, methodsFor, routeOf)

  const app = new Elysia({
    // Elysia otherwise skips the first 11 characters of the URL when it looks for the path,
    // assuming a host of at least four: with `Host: a`, `/xx/api/compress` was routed as
    // `/api/compress` while the access checks read `/xx/api/compress` and let it through. The
    // path is now found after `http://`, where request-target.ts finds it, for any valid Host.
    handler: { standardHostname: false },
    // One path, one route: no trailing-slash twin that the access checks would not recognise
    // (see http/slash-redirect.ts).
    strictPath: true,
    serve: { ...SERVE_OPTIONS, error: hooks.lastResort },
  })
    .onRequest(guard('onRequest', logger, hooks.onRequest, ({ request }) => hooks.lastResort(request.url)))
    .onError(guard('onError', logger, hooks.onError, (error) => hooks.lastResort(error)))
    .onAfterResponse(guard('onAfterResponse', logger, hooks.onAfterResponse, () => undefined))
    .use(healthRoutes(context))
    .use(formatsRoutes(context))
    .use(compressRoutes(context))
    .use(swaggerRoutes(context))
    .use(docsSiteRoutes(context))
    .use(toolsRoutes(context))
    .use(metricsRoutes(context))
    .use(livezRoutes())
    .use(faviconRoutes())

  for (const route of app.routes) {
    if (route.method === 'OPTIONS' || route.path.includes('*')) continue
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method])
  }
  return app
}

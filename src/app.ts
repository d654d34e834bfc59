import { Elysia } from 'elysia'
import type { AppContext } from './app-context.ts'
import type { Config } from './config.ts'
import { corsHeaders, parseCorsOrigins, preflightHeaders } from './http/cors.ts'
import { toHttpError } from './http/error-handler.ts'
import { problemResponse } from './http/problem.ts'
import { requestIdFor } from './http/request-id.ts'
import { JobQueue } from './image/queue.ts'
import { createCodecCheck } from './image/self-test.ts'
import { Lifecycle } from './lifecycle.ts'
import { createLogger } from './log.ts'
import { compressRoutes } from './routes/compress.ts'
import { docsRoutes } from './routes/docs.ts'
import { formatsRoutes } from './routes/formats.ts'
import { healthRoutes } from './routes/health.ts'

export function createContext(config: Config, overrides: Partial<AppContext> = {}): AppContext {
  return {
    config,
    queue: new JobQueue({ workers: config.workers, capacity: config.queueLength }),
    lifecycle: new Lifecycle(),
    logger: createLogger(config.logLevel),
    cors: parseCorsOrigins(config.corsOrigins),
    codecCheck: createCodecCheck(),
    ...overrides,
  }
}

const requestIds = new WeakMap<Request, { id: string; started: number; status?: number }>()

/** Builds the whole service as a value; it never listens (see index.ts). */
export function createApp(config: Config, overrides: Partial<AppContext> = {}) {
  const context = createContext(config, overrides)
  const { logger } = context
  const methodsByPath = new Map<string, string[]>()
  const methodsFor = (path: string) => methodsByPath.get(path) ?? []

  const app = new Elysia({
    // Bun's own limit answers with an empty 413; ours (read-body.ts) answers in JSON, so
    // Bun's is set far above it and never decides.
    serve: { maxRequestBodySize: 2 ** 40 },
  })
    .onRequest(({ request, set }) => {
      const id = requestIdFor(request)
      requestIds.set(request, { id, started: performance.now() })
      set.headers['x-request-id'] = id
      Object.assign(set.headers, corsHeaders(context.cors, request))
      if (request.method === 'OPTIONS') {
        const methods = methodsFor(new URL(request.url).pathname)
        if (methods.length > 0) {
          return new Response(null, {
            status: 204,
            headers: {
              ...preflightHeaders(context.cors, request, methods),
              allow: [...methods, 'OPTIONS'].join(', '),
            },
          })
        }
      }
    })
    .onError(({ code, error, request }) => {
      const meta = requestIds.get(request)
      const id = meta?.id ?? requestIdFor(request)
      const response = problemResponse(toHttpError(code, error, request, methodsFor, logger, id), id, request)
      if (meta) meta.status = response.status
      return response
    })
    .onAfterResponse(({ request, set, responseValue }) => {
      const meta = requestIds.get(request)
      const status = meta?.status ?? (responseValue instanceof Response ? responseValue.status : set.status)
      logger.info('request', {
        requestId: meta?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status,
        ms: meta ? Math.round(performance.now() - meta.started) : undefined,
      })
    })
    .use(healthRoutes(context))
    .use(formatsRoutes())
    .use(compressRoutes(context))
    .use(docsRoutes())

  for (const route of app.routes) {
    if (route.method === 'OPTIONS' || route.path.includes('*')) continue
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method])
  }
  return app
}

export type App = ReturnType<typeof createApp>

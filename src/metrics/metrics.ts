import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { ErrorCode } from '../errors/catalogue.ts'
import type { QueueStats } from '../image/queue.ts'

/** What the gauges read when they are scraped; nothing is sampled in between. */
export interface MetricSources {
  readonly queue: () => QueueStats
  readonly workers: number
  readonly uploads: () => { readonly usedBytes: number; readonly budgetBytes: number }
  /** Undefined when limits are kept in memory: then the gauge is not exported at all. */
  readonly redisUp: () => boolean | undefined
  readonly build: { readonly version: string; readonly sharp: string; readonly libvips: string }
}

export type RateLimitKind = 'rate' | 'client_jobs'

// Compressions on 2 cores run from milliseconds (a small PNG) to tens of seconds (a large AVIF).
const DURATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]

/**
 * The service's Prometheus metrics, named by Prometheus's conventions: an `imgapi_` prefix,
 * base units (seconds, bytes), `_total` on counters. Every label has a bounded set of values:
 * route templates, methods, statuses, error codes and output formats.
 */
export class Metrics {
  readonly registry = new Registry()
  readonly #requests: Counter<'method' | 'route' | 'status'>
  readonly #duration: Histogram<'format'>
  readonly #bytesIn: Counter<'format'>
  readonly #bytesOut: Counter<'format'>
  readonly #ratio: Histogram<'format'>
  readonly #rejected: Counter<'code'>
  readonly #rateLimited: Counter<'limit'>
  readonly #redisErrors: Counter

  constructor(sources: MetricSources) {
    const registers = [this.registry]
    this.#requests = new Counter({
      name: 'imgapi_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    this.#duration = new Histogram({
      name: 'imgapi_compress_duration_seconds',
      help: 'Time from a compress request arriving to its image being ready, by output format.',
      labelNames: ['format'],
      buckets: DURATION_BUCKETS,
      registers,
    })
    this.#bytesIn = new Counter({
      name: 'imgapi_compress_input_bytes_total',
      help: 'Bytes of images compressed successfully, by input format.',
      labelNames: ['format'],
      registers,
    })
    this.#bytesOut = new Counter({
      name: 'imgapi_compress_output_bytes_total',
      help: 'Bytes of the images returned, by output format.',
      labelNames: ['format'],
      registers,
    })
    this.#ratio = new Histogram({
      name: 'imgapi_compress_ratio',
      help: 'Output bytes divided by input bytes, by output format.',
      labelNames: ['format'],
      buckets: RATIO_BUCKETS,
      registers,
    })
    this.#rejected = new Counter({
      name: 'imgapi_rejected_requests_total',
      help: 'Requests answered with a problem (an error), by its code.',
      labelNames: ['code'],
      registers,
    })
    this.#rateLimited = new Counter({
      name: 'imgapi_rate_limited_requests_total',
      help: 'Requests refused with 429 by the rate limit ("rate") or the per-client cap of requests in progress ("client_jobs").',
      labelNames: ['limit'],
      registers,
    })
    this.#redisErrors = new Counter({
      name: 'imgapi_redis_errors_total',
      help: 'Rate-limit calls to Redis that failed or timed out.',
      registers,
    })
    this.#gauges(sources)
  }

  #gauges(sources: MetricSources): void {
    const registers = [this.registry]
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read())
        },
      })
    gauge(
      'imgapi_queue_waiting_jobs',
      'Compress requests admitted and not yet running.',
      () => sources.queue().waiting,
    )
    gauge('imgapi_workers_busy', 'Workers running a compression now.', () => sources.queue().running)
    gauge('imgapi_workers', 'Workers (IMGAPI_WORKERS).', () => sources.workers)
    gauge(
      'imgapi_queue_capacity',
      'Requests the queue admits beyond the workers (IMGAPI_QUEUE_LENGTH).',
      () => sources.queue().capacity,
    )
    gauge(
      'imgapi_decode_memory_reserved_bytes',
      'Memory reserved by running jobs.',
      () => sources.queue().memoryBytes.used,
    )
    gauge(
      'imgapi_decode_memory_budget_bytes',
      'Memory running jobs may reserve together.',
      () => sources.queue().memoryBytes.budget,
    )
    gauge(
      'imgapi_upload_reserved_bytes',
      'Memory reserved by uploads being read.',
      () => sources.uploads().usedBytes,
    )
    gauge(
      'imgapi_upload_budget_bytes',
      'Memory uploads being read may reserve together.',
      () => sources.uploads().budgetBytes,
    )
    if (sources.redisUp() !== undefined) {
      gauge('imgapi_redis_up', '1 while the shared rate-limit store (Redis) answers, else 0.', () =>
        Number(sources.redisUp()),
      )
    }
    gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => process.memoryUsage.rss())
    const startSeconds = Math.round(Date.now() / 1000 - process.uptime())
    gauge(
      'process_start_time_seconds',
      'Start time of the process since the Unix epoch in seconds.',
      () => startSeconds,
    )
    new Counter({
      name: 'process_cpu_seconds_total',
      help: 'User and system CPU time spent in seconds.',
      registers,
      collect() {
        const { user, system } = process.cpuUsage()
        this.reset()
        this.inc((user + system) / 1e6)
      },
    })
    new Gauge({
      name: 'imgapi_build_info',
      help: 'Always 1; the labels say which build is running.',
      labelNames: ['version', 'bun', 'sharp', 'libvips'],
      registers,
    }).set({ ...sources.build, bun: Bun.version }, 1)
  }

  request(method: string, route: string, status: number): void {
    this.#requests.inc({ method, route, status: String(status) })
  }

  compressed(result: {
    readonly inputFormat: string
    readonly outputFormat: string
    readonly inputBytes: number
    readonly outputBytes: number
    readonly seconds: number
  }): void {
    const format = result.outputFormat
    this.#duration.observe({ format }, result.seconds)
    this.#bytesIn.inc({ format: result.inputFormat }, result.inputBytes)
    this.#bytesOut.inc({ format }, result.outputBytes)
    if (result.inputBytes > 0) this.#ratio.observe({ format }, result.outputBytes / result.inputBytes)
  }

  rejected(code: ErrorCode): void {
    this.#rejected.inc({ code })
  }

  rateLimited(limit: RateLimitKind): void {
    this.#rateLimited.inc({ limit })
  }

  redisError(): void {
    this.#redisErrors.inc()
  }

  get contentType(): string {
    return this.registry.contentType
  }

  text(): Promise<string> {
    return this.registry.metrics()
  }
}

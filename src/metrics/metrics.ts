import { Counter, Histogram, Registry } from 'prom-client'
import type { ErrorCode } from '../errors/catalogue.ts'
import { registerGauges, type MetricSources } from './gauges.ts'
import {
  API_REQUESTS,
  COMPRESS_OUTCOMES,
  ERROR_CODES,
  INPUT_FORMATS,
  NO_FORMAT,
  RATE_LIMIT_KINDS,
  REDIS_CALLS,
  WORKER_STOPS,
  STATUS_CLASSES,
  STORE_WRITE_RESULTS,
  statusClass,
  type RateLimitKind,
  type RedisCall,
  type StoreWriteResult,
  type WorkerStop,
} from './label-sets.ts'
import { OUTPUT_FORMATS } from '../formats/format-table.ts'

export type { MetricSources } from './gauges.ts'
export type { RateLimitKind, RedisCall, WorkerStop } from './label-sets.ts'

// Compressions on 2 cores run from milliseconds (a small PNG) to tens of seconds (a large AVIF).
const DURATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]

/** How one compress request ended, as the access log records it. */
export interface CompressAnswer {
  readonly status: number
  /** From arrival to the answer. */
  readonly seconds: number
  /** Waiting for a worker, when the job reached the queue. */
  readonly queueSeconds?: number
  /** On a worker until the job ended or the answer left, when it started. */
  readonly processingSeconds?: number
  /** The output format of the image returned; none for an error. */
  readonly format?: string
}

/**
 * The service's Prometheus metrics, named by Prometheus's conventions: an `imgapi_` prefix,
 * base units (seconds, bytes), `_total` on counters. Every label has a bounded set of values
 * (route templates, methods, statuses, error codes, formats), and the known ones are exported
 * at 0 from the start (label-sets.ts).
 */
export class Metrics {
  readonly registry = new Registry()
  readonly #requests: Counter<'method' | 'route' | 'status'>
  readonly #duration: Histogram<'status_class' | 'format'>
  readonly #queueWait: Histogram<'status_class'>
  readonly #processing: Histogram<'status_class' | 'format'>
  readonly #bytesIn: Counter<'format'>
  readonly #bytesOut: Counter<'format'>
  readonly #ratio: Histogram<'format'>
  readonly #rejected: Counter<'code'>
  readonly #rateLimited: Counter<'limit'>
  readonly #redisErrors: Counter<'call'> | undefined
  readonly #workerStops: Counter<'reason' | 'format'>
  readonly #workerRecycles: Counter<never>
  readonly #workerRestarts: Counter
  readonly #storeWrites: Counter<'result'>

  constructor(sources: MetricSources) {
    const registers = [this.registry]
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers })
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers })

    this.#requests = counter(
      'imgapi_http_requests_total',
      'HTTP requests answered, by method, route template and status.',
      ['method', 'route', 'status'],
    )
    this.#duration = histogram(
      'imgapi_compress_duration_seconds',
      'Compress requests from arrival to answer, every outcome: by status class and output format (none for an error).',
      ['status_class', 'format'],
      DURATION_BUCKETS,
    )
    this.#queueWait = histogram(
      'imgapi_compress_queue_wait_seconds',
      'Time compress jobs waited for a worker, by the status class of their answer.',
      ['status_class'],
      DURATION_BUCKETS,
    )
    this.#processing = histogram(
      'imgapi_compress_processing_seconds',
      'Time compress jobs spent on a worker until they ended or were answered, by status class and output format.',
      ['status_class', 'format'],
      DURATION_BUCKETS,
    )
    this.#bytesIn = counter(
      'imgapi_compress_input_bytes_total',
      'Bytes of images compressed successfully, by input format.',
      ['format'],
    )
    this.#bytesOut = counter(
      'imgapi_compress_output_bytes_total',
      'Bytes of the images returned, by output format.',
      ['format'],
    )
    this.#ratio = histogram(
      'imgapi_compress_ratio',
      'Output bytes divided by input bytes, by output format.',
      ['format'],
      RATIO_BUCKETS,
    )
    this.#rejected = counter(
      'imgapi_rejected_requests_total',
      'Requests answered with a problem (an error), by its code.',
      ['code'],
    )
    this.#rateLimited = counter(
      'imgapi_rate_limited_requests_total',
      'Requests refused with 429 by the rate limit ("rate") or the per-client cap of requests in progress ("client_jobs").',
      ['limit'],
    )
    this.#redisErrors =
      sources.redisUp() === undefined
        ? undefined
        : counter(
            'imgapi_redis_errors_total',
            'Redis calls that failed, timed out or were not tried because Redis was down: rate-limit checks ("rate_limit") and reconnection attempts ("connect").',
            ['call'],
          )
    this.#workerStops = counter(
      'imgapi_worker_stops_total',
      'Worker processes that ended in the middle of a job: their codec crashed ("crash": 422 CODEC_CRASHED), they were killed from outside the server ("lost": the job is retried once, then 503 WORKER_LOST), or the server killed them over their CPU time ("timeout"), the wall-time ceiling ("overloaded") or their memory ("memory"); by that input format.',
      ['reason', 'format'],
    )
    this.#workerRestarts = counter(
      'imgapi_worker_restarts_total',
      'Worker processes started to replace one that ended in a job (crashed, killed) or stopped answering.',
      [],
    )
    this.#workerRecycles = counter(
      'imgapi_worker_recycles_total',
      'Worker processes that retired after a job because their memory grew past what they may keep, and were replaced: routine, not a failure.',
      [],
    )
    this.#storeWrites = counter(
      'imgapi_store_writes_total',
      'Outputs a request asked to store: written ("stored"), refused because the key was taken without storeOverwrite ("exists"), or not taken by the storage ("failed").',
      ['result'],
    )
    this.#zero()
    registerGauges(this.registry, sources)
  }

  /** Every known series at 0, so the first event is an increase Prometheus can see. */
  #zero(): void {
    for (const labels of API_REQUESTS) this.#requests.inc(labels, 0)
    for (const labels of COMPRESS_OUTCOMES) {
      this.#duration.zero(labels)
      this.#processing.zero(labels)
    }
    for (const status_class of STATUS_CLASSES) this.#queueWait.zero({ status_class })
    for (const format of INPUT_FORMATS) this.#bytesIn.inc({ format }, 0)
    for (const format of OUTPUT_FORMATS) {
      this.#bytesOut.inc({ format }, 0)
      this.#ratio.zero({ format })
    }
    for (const code of ERROR_CODES) this.#rejected.inc({ code }, 0)
    for (const limit of RATE_LIMIT_KINDS) this.#rateLimited.inc({ limit }, 0)
    for (const call of REDIS_CALLS) this.#redisErrors?.inc({ call }, 0)
    for (const reason of WORKER_STOPS)
      for (const format of INPUT_FORMATS) this.#workerStops.inc({ reason, format }, 0)
    this.#workerRestarts.inc(0)
    this.#workerRecycles.inc(0)
    for (const result of STORE_WRITE_RESULTS) this.#storeWrites.inc({ result }, 0)
  }

  request(method: string, route: string, status: number): void {
    this.#requests.inc({ method, route, status: String(status) })
  }

  /** Every compress request, whatever its answer: the duration and, when reached, each phase. */
  compressAnswered(answer: CompressAnswer): void {
    const status_class = statusClass(answer.status)
    const format = status_class === '2xx' ? (answer.format ?? NO_FORMAT) : NO_FORMAT
    this.#duration.observe({ status_class, format }, answer.seconds)
    if (answer.queueSeconds !== undefined) this.#queueWait.observe({ status_class }, answer.queueSeconds)
    if (answer.processingSeconds !== undefined)
      this.#processing.observe({ status_class, format }, answer.processingSeconds)
  }

  /** The bytes of a successful compression. */
  compressed(result: {
    readonly inputFormat: string
    readonly outputFormat: string
    readonly inputBytes: number
    readonly outputBytes: number
  }): void {
    const format = result.outputFormat
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

  workerStopped(reason: WorkerStop, format: string): void {
    this.#workerStops.inc({ reason, format })
  }

  workerRestarted(): void {
    this.#workerRestarts.inc()
  }

  workerRecycled(): void {
    this.#workerRecycles.inc()
  }

  storeWrite(result: StoreWriteResult): void {
    this.#storeWrites.inc({ result })
  }

  redisError(call: RedisCall): void {
    this.#redisErrors?.inc({ call })
  }

  get contentType(): string {
    return this.registry.contentType
  }

  text(): Promise<string> {
    return this.registry.metrics()
  }
}

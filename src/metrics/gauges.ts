import { Counter, Gauge, type Registry } from 'prom-client'
import { OUTPUT_FORMATS } from '../formats/format-table.ts'
import type { QueueStats } from '../image/queue.ts'

/** What the gauges read when they are scraped; nothing is sampled in between. */
export interface MetricSources {
  readonly queue: () => QueueStats
  readonly workers: number
  readonly uploads: () => { readonly usedBytes: number; readonly budgetBytes: number }
  /** Undefined when limits are kept in memory: then the Redis series are not exported at all. */
  readonly redisUp: () => boolean | undefined
  /** The last codec self-test, or undefined before the first one has ended. */
  readonly codecs: () =>
    { readonly checkedAt: string; readonly formats: Readonly<Record<string, boolean>> } | undefined
  readonly draining: () => boolean
  readonly build: { readonly version: string; readonly sharp: string; readonly libvips: string }
}

/** The gauges, each read from its source at scrape time. */
export function registerGauges(registry: Registry, sources: MetricSources): void {
  const registers = [registry]
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
  gauge(
    'imgapi_draining',
    '1 from SIGTERM until the process exits (health answers 503 "draining"), else 0.',
    () => Number(sources.draining()),
  )
  registerCodecGauges(registry, sources)
  if (sources.redisUp() !== undefined) {
    gauge('imgapi_redis_up', '1 while the shared rate-limit store (Redis) answers, else 0.', () =>
      Number(sources.redisUp()),
    )
  }
  registerProcessMetrics(registry)
  new Gauge({
    name: 'imgapi_build_info',
    help: 'Always 1; the labels say which build is running.',
    labelNames: ['version', 'bun', 'sharp', 'libvips'],
    registers,
  }).set({ ...sources.build, bun: Bun.version }, 1)
}

/**
 * The codec self-test (an image encoded and decoded in every output format, as health reports
 * it): 1 per format that passed the last check, 0 for one that failed or before any check.
 */
function registerCodecGauges(registry: Registry, sources: MetricSources): void {
  new Gauge({
    name: 'imgapi_codec_healthy',
    help: '1 when the last codec self-test encoded and decoded this output format, else 0.',
    labelNames: ['format'],
    registers: [registry],
    collect() {
      const formats = sources.codecs()?.formats ?? {}
      for (const format of OUTPUT_FORMATS) this.set({ format }, Number(formats[format] === true))
    },
  })
  new Gauge({
    name: 'imgapi_codec_check_timestamp_seconds',
    help: 'When the last codec self-test ended, in seconds since the Unix epoch; 0 before the first.',
    registers: [registry],
    collect() {
      const checkedAt = sources.codecs()?.checkedAt
      this.set(checkedAt ? Date.parse(checkedAt) / 1000 : 0)
    },
  })
}

function registerProcessMetrics(registry: Registry): void {
  const registers = [registry]
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory size in bytes.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss())
    },
  })
  const startSeconds = Math.round(Date.now() / 1000 - process.uptime())
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'Start time of the process since the Unix epoch in seconds.',
    registers,
  }).set(startSeconds)
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
}

import type { WorkerProcess } from './worker-process.ts'

/** How often a busy worker's CPU time and resident memory are read. */
export const WATCH_MS = 10
export { WALL_CEILING_FACTOR } from '../image/job-clock.ts'

export interface WatchLimits {
  /** CPU time the job may use (IMGAPI_JOB_TIMEOUT_MS). */
  readonly cpuMs: number
  /** Monotonic time (performance.now()) past which the job is stopped whatever its CPU time. */
  readonly wallCeilingAt: number
  /** Resident memory the job may add to its worker's size at the start; read at each tick. */
  readonly allowanceBytes: () => number
}

/**
 * Watches a worker while it runs one job and kills it with the reason that applies: its CPU
 * time over the limit ('timeout'), the wall-time ceiling passed ('overloaded'), or its memory
 * ('memory'). Memory is judged on where it is heading, the last reading plus the growth since
 * the one before: a renderer that fills a buffer at gigabytes a second passes its share between
 * two readings, and a kill one reading late lets it overshoot by that much.
 * Returns the function that stops watching.
 */
export function watchJob(worker: WorkerProcess, startBytes: number, limits: WatchLimits): () => void {
  const startCpu = worker.cpuMillis() ?? 0
  let lastResident = startBytes
  const check = () => {
    const cpu = worker.cpuMillis()
    if (cpu !== undefined && cpu - startCpu >= limits.cpuMs) return worker.kill('timeout')
    if (performance.now() >= limits.wallCeilingAt) return worker.kill('overloaded')
    const resident = worker.residentBytes()
    if (resident === undefined) return
    const heading = resident + Math.max(0, resident - lastResident)
    lastResident = resident
    if (heading - startBytes > limits.allowanceBytes()) worker.kill('memory')
  }
  const interval = setInterval(check, WATCH_MS)
  // The ceiling on time, on time: an interval that lags on a busy loop must not delay it.
  const ceiling = setTimeout(check, Math.max(0, limits.wallCeilingAt - performance.now()))
  return () => {
    clearInterval(interval)
    clearTimeout(ceiling)
  }
}

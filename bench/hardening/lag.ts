/*
 * How late the benchmark's own event loop ran. Every latency measured on the main thread
 * (not health: that prober has its own thread) is inflated by this much when the client is busy
 * generating the attack, so it is printed beside them.
 */
import { percentile } from '../common/figures.ts'

const TICK_MS = 20

export interface LagFigures {
  readonly p99Ms: number
  readonly maxMs: number
}

export function watchLag(): { stop: () => LagFigures } {
  const lags: number[] = []
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    lags.push(Math.max(0, now - last - TICK_MS))
    last = now
  }, TICK_MS)
  return {
    stop: () => {
      clearInterval(timer)
      return { p99Ms: percentile(lags, 99), maxMs: Math.max(0, ...lags) }
    },
  }
}

/* Health latency throughout a scenario: the prober thread's handle, and what its probes add up to. */
import { percentile } from '../common/figures.ts'
import type { Probe, ProbeCommand } from './probe-worker.ts'

/** The goal: every probe answered within this. */
export const HEALTH_GOAL_MS = 1_000

export interface HealthFigures {
  readonly count: number
  readonly maxMs: number
  readonly p99Ms: number
  /** Probes without a healthy answer (error, timeout, or a status other than ok / accepted draining). */
  readonly failures: number
  readonly failureSamples: readonly string[]
  readonly draining: number
  readonly peakUploadsBytes: number
  readonly peakWaiting: number
  /** The lowest `queue.waiting` seen; below 0 the health figures are inconsistent. */
  readonly lowestWaiting: number
  readonly peakRunning: number
  readonly peakDecodeBytes: number
}

export class HealthProber {
  readonly #worker: Worker
  readonly #result: Promise<Probe[]>
  #stopped = false

  private constructor(baseUrl: string) {
    this.#worker = new Worker(new URL('./probe-worker.ts', import.meta.url).href)
    this.#result = new Promise((resolve) => {
      this.#worker.onmessage = (event: MessageEvent<Probe[]>) => resolve(event.data)
    })
    this.#worker.postMessage({ type: 'start', baseUrl } satisfies ProbeCommand)
  }

  static start(baseUrl: string): HealthProber {
    return new HealthProber(baseUrl)
  }

  /** Ends probing (the probe in flight finishes) and returns every probe. */
  async stop(): Promise<Probe[]> {
    if (!this.#stopped) this.#worker.postMessage({ type: 'stop' } satisfies ProbeCommand)
    this.#stopped = true
    const probes = await this.#result
    this.#worker.terminate()
    return probes
  }
}

const healthy = (probe: Probe, acceptDraining: boolean) =>
  probe.status === 200 || (acceptDraining && probe.status === 503 && probe.health === 'draining')

export function summarizeProbes(probes: readonly Probe[], acceptDraining: boolean): HealthFigures {
  const failed = probes.filter((probe) => !healthy(probe, acceptDraining))
  const peak = (key: 'uploadsBytes' | 'waiting' | 'running' | 'decodeBytes') =>
    Math.max(0, ...probes.map((probe) => probe[key] ?? 0))
  return {
    count: probes.length,
    maxMs: Math.max(0, ...probes.map((probe) => probe.ms)),
    p99Ms: percentile(
      probes.map((probe) => probe.ms),
      99,
    ),
    failures: failed.length,
    failureSamples: failed
      .slice(0, 3)
      .map((p) => `${p.error ?? `${p.status} ${p.health ?? ''}`.trim()} after ${Math.round(p.ms)} ms`),
    draining: probes.filter((probe) => probe.health === 'draining').length,
    peakUploadsBytes: peak('uploadsBytes'),
    peakWaiting: peak('waiting'),
    lowestWaiting: Math.min(0, ...probes.map((probe) => probe.waiting ?? 0)),
    peakRunning: peak('running'),
    peakDecodeBytes: peak('decodeBytes'),
  }
}

import type { EncodedImage } from '../pipeline.ts'
import { encodePixels, type Pixels } from '../pixels.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'

export interface Attempt {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
}

export interface SessionLimits {
  /** Monotonic time (performance.now()) by which the search must have returned. */
  readonly deadline: number
  /** Most encodes one request may cost, whatever the time left. */
  readonly maxEncodes: number
  readonly timeoutSeconds: number
}

/** What every session of one search shares: the count of encodes and the slowest step. */
interface Clock {
  count: number
  slowestMs: number
  lastEncodeMs: number
}

/**
 * The encodes of one search on one set of pixels. It counts them, and says whether another
 * step fits in the time left, judging by the slowest so far: an encode that cannot be stopped
 * (AVIF, palette) must not start if it would end past the job's deadline. Sessions on other
 * pixels of the same search (a preview, a scaled-down copy) share the count and the clock.
 */
export class EncodeSession {
  private constructor(
    readonly pixels: Pixels,
    private readonly probe: ImageProbe,
    private readonly limits: SessionLimits,
    private readonly clock: Clock,
  ) {}

  static start(pixels: Pixels, probe: ImageProbe, limits: SessionLimits): EncodeSession {
    return new EncodeSession(pixels, probe, limits, { count: 0, slowestMs: 0, lastEncodeMs: 0 })
  }

  get count(): number {
    return this.clock.count
  }

  canAfford(): boolean {
    return this.canAffordMs(this.clock.slowestMs)
  }

  /** Whether a step expected to take `ms` ends before the deadline, with a quarter to spare. */
  canAffordMs(ms: number): boolean {
    if (this.clock.count >= this.limits.maxEncodes) return false
    return performance.now() + ms * 1.25 < this.limits.deadline
  }

  /** How long the last encode took: the base for estimating one at another effort. */
  get lastEncodeMs(): number {
    return this.clock.lastEncodeMs
  }

  /** Counts time spent beside encoding (scoring a candidate) into the estimate of the next step. */
  note(elapsedMs: number): void {
    this.clock.slowestMs = Math.max(this.clock.slowestMs, elapsedMs)
  }

  async encode(plan: JobPlan): Promise<Attempt> {
    const started = performance.now()
    const encoded = await encodePixels(this.pixels, this.probe, plan, this.limits.timeoutSeconds)
    this.clock.count++
    this.clock.lastEncodeMs = performance.now() - started
    this.note(this.clock.lastEncodeMs)
    return { plan, encoded }
  }

  /** A session on other pixels of the same search, sharing its count and clock. */
  withPixels(pixels: Pixels): EncodeSession {
    return new EncodeSession(pixels, this.probe, this.limits, this.clock)
  }
}

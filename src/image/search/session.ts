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

/**
 * The encodes of one search, from one set of transformed pixels: it counts them, and says
 * whether another fits in the time left, judging by the slowest so far. An encode that cannot
 * be stopped (AVIF, palette) must not start if it would end past the job's deadline.
 */
export class EncodeSession {
  #count = 0
  #slowestMs = 0

  constructor(
    readonly pixels: Pixels,
    private readonly probe: ImageProbe,
    private readonly limits: SessionLimits,
  ) {}

  get count(): number {
    return this.#count
  }

  canAfford(): boolean {
    if (this.#count >= this.limits.maxEncodes) return false
    return performance.now() + this.#slowestMs * 1.25 < this.limits.deadline
  }

  async encode(plan: JobPlan): Promise<Attempt> {
    const started = performance.now()
    const encoded = await encodePixels(this.pixels, this.probe, plan, this.limits.timeoutSeconds)
    this.#count++
    this.#slowestMs = Math.max(this.#slowestMs, performance.now() - started)
    return { plan, encoded }
  }

  /** The same session on other pixels (scaled down to fit), keeping the count and the clock. */
  withPixels(pixels: Pixels): EncodeSession {
    const next = new EncodeSession(pixels, this.probe, this.limits)
    next.#count = this.#count
    next.#slowestMs = this.#slowestMs
    return next
  }
}

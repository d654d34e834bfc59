import type { EncodedImage } from '../pipeline.ts'
import { encodePixels, type Pixels } from './pixels.ts'
import type { JobClock } from '../job-clock.ts'
import type { JobPlan } from '../plan.ts'
import type { ImageProbe } from '../probe.ts'
import type { Similarity } from './similarity.ts'

export interface Attempt {
  readonly plan: JobPlan
  readonly encoded: EncodedImage
}

/** A full-size attempt that meets the request, offered as the search's best so far. */
export type OfferBest = (attempt: Attempt, pixels: Pixels, similarity?: Similarity) => void

/** An attempt and how close it came to its reference. */
export interface Scored extends Attempt {
  readonly similarity: Similarity
}

export interface SessionLimits {
  /** How the job's time is counted: CPU time in a worker (image/job-clock.ts). */
  readonly clock: JobClock
  /** The time on `clock` by which the search must have returned. */
  readonly deadline: number
  /** Most encodes one request may cost, whatever the time left. */
  readonly maxEncodes: number
  readonly timeoutSeconds: number
  /** Told of each attempt a search finds good enough, in order of improvement. */
  readonly offerBest?: OfferBest
}

/** What every session of one search shares: the count of encodes and the slowest step. */
interface Clock {
  count: number
  slowestMs: number
  lastEncodeMs: number
  outOfTime: boolean
}

/**
 * The encodes of one search on one set of pixels. It counts them, and says whether another
 * step fits in the time left, judging by the slowest so far: an encode that cannot be stopped
 * (AVIF, palette) must not start if it would end past the job's deadline. Sessions on other
 * pixels of the same search (a preview, a scaled-down copy) share the count and the clock.
 * A session may be limited to fewer encodes than the search's cap, so that a first stage
 * (choosing a format, reaching a level) leaves encodes for the stage after it.
 */
export class EncodeSession {
  private constructor(
    readonly pixels: Pixels,
    private readonly probe: ImageProbe,
    private readonly limits: SessionLimits,
    private readonly clock: Clock,
    /** The count at which this session stops encoding: the search's cap, or a stage's share. */
    private readonly cap: number,
    /** A preview's attempts are never answers: they are not offered as the best so far. */
    private readonly preview = false,
  ) {}

  static start(pixels: Pixels, probe: ImageProbe, limits: SessionLimits): EncodeSession {
    return new EncodeSession(
      pixels,
      probe,
      limits,
      { count: 0, slowestMs: 0, lastEncodeMs: 0, outOfTime: false },
      limits.maxEncodes,
    )
  }

  /** This session, stopping `encodes` short of its cap, which a later stage keeps. */
  leaving(encodes: number): EncodeSession {
    return new EncodeSession(
      this.pixels,
      this.probe,
      this.limits,
      this.clock,
      this.cap - Math.max(0, encodes),
      this.preview,
    )
  }

  /** Encodes this session may still make. */
  get encodesLeft(): number {
    return Math.max(0, this.cap - this.clock.count)
  }

  /** Whether the count allows one more encode, whatever the time. */
  hasEncodesLeft(): boolean {
    return this.clock.count < this.cap
  }

  /** This session with at most `encodes` more, leaving the rest of the cap to later stages. */
  limitedTo(encodes: number): EncodeSession {
    const cap = Math.min(this.cap, this.clock.count + Math.max(0, encodes))
    return new EncodeSession(this.pixels, this.probe, this.limits, this.clock, cap, this.preview)
  }

  get count(): number {
    return this.clock.count
  }

  canAfford(): boolean {
    return this.canAffordMs(this.clock.slowestMs)
  }

  /** Whether a step expected to take `ms` ends before the deadline, with a quarter to spare. */
  canAffordMs(ms: number): boolean {
    if (!this.hasEncodesLeft()) return false
    if (this.now() + ms * 1.25 < this.limits.deadline) return true
    this.clock.outOfTime = true
    return false
  }

  /** The job's time so far, on its clock. */
  now(): number {
    return this.limits.clock.now()
  }

  /** Whether a step was ever refused for time: a search that ends unmet then ran out of time, it did not prove the target out of reach. */
  get ranOutOfTime(): boolean {
    return this.clock.outOfTime
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
    // Every caller checks first; this keeps the published cap a promise, not a habit.
    if (!this.hasEncodesLeft()) throw new Error(`encode cap of ${this.cap} reached`)
    const started = this.now()
    const encoded = await encodePixels(this.pixels, this.probe, plan, this.limits.timeoutSeconds)
    this.clock.count++
    this.clock.lastEncodeMs = this.now() - started
    this.note(this.clock.lastEncodeMs)
    return { plan, encoded }
  }

  /** A session on other pixels of the same search (a scaled-down copy, or a preview), sharing its count and clock. */
  withPixels(pixels: Pixels, preview = false): EncodeSession {
    return new EncodeSession(pixels, this.probe, this.limits, this.clock, this.cap, preview)
  }

  /** Offers an attempt that meets the request as the best so far (see SessionLimits.offerBest). */
  offer(attempt: Attempt, similarity?: Similarity): void {
    if (!this.preview) this.limits.offerBest?.(attempt, this.pixels, similarity)
  }

  /**
   * A session on a small sample of the image (search/sample.ts), bound by the same deadline but
   * counted apart: a sample's encodes are estimates at a sixth of the cost, not candidates, so
   * they neither use up nor show in the count of encodes (at most the cap again, of its own).
   */
  forSample(pixels: Pixels): EncodeSession {
    const clock = { count: 0, slowestMs: 0, lastEncodeMs: 0, outOfTime: false }
    // A sample's attempts are never answers: as a preview's, they are not offered as the best.
    return new EncodeSession(pixels, this.probe, this.limits, clock, this.limits.maxEncodes, true)
  }
}

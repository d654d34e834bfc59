import type { Logger } from '../log.ts'
import type { Decision, Policy } from './gcra.ts'
import { MemoryRateStore } from './memory-store.ts'
import { RedisRateStore, type DependencyStatus, type RedisCall } from './redis-store.ts'

export interface RateStore {
  take(key: string, policy: Policy): Promise<Decision>
}

export type RateOutcome =
  | { readonly kind: 'off' }
  | { readonly kind: 'decided'; readonly name: string; readonly policy: Policy; readonly decision: Decision }
  /** The shared store could not answer; the fail mode says what that means. */
  | { readonly kind: 'unavailable'; readonly failOpen: boolean }

export interface RateLimiterSettings {
  readonly rateLimit: number
  readonly rateWindowMs: number
  readonly rateBurst: number
  readonly redisUrl: string
  readonly redisPrefix: string
  readonly redisTimeoutMs: number
  readonly rateLimitFail: 'open' | 'closed'
}

/**
 * Applies the policy in force for a client (its key's own, else IMGAPI_RATE_LIMIT) with one
 * store: this process's memory, or Redis when several instances must share one limit.
 */
export class RateLimiter {
  readonly #store: RateStore
  readonly #redis: RedisRateStore | undefined
  readonly #global: Policy | undefined

  constructor(
    private readonly settings: RateLimiterSettings,
    logger: Logger,
    onStoreError: (call: RedisCall) => void = () => {},
  ) {
    this.#redis = settings.redisUrl
      ? new RedisRateStore(
          settings.redisUrl,
          settings.redisPrefix,
          settings.redisTimeoutMs,
          logger,
          onStoreError,
        )
      : undefined
    this.#store = this.#redis ?? new MemoryRateStore()
    this.#global =
      settings.rateLimit > 0
        ? {
            limit: settings.rateLimit,
            windowMs: settings.rateWindowMs,
            burst: settings.rateBurst || settings.rateLimit,
          }
        : undefined
  }

  /** The limit every client without a key of its own gets, or undefined when there is none. */
  get globalPolicy(): Policy | undefined {
    return this.#global
  }

  /** Redis's state, for health; undefined when limits are kept in memory. */
  get dependency(): DependencyStatus | undefined {
    return this.#redis?.status
  }

  async take(limiterKey: string, keyPolicy?: Policy): Promise<RateOutcome> {
    const policy = keyPolicy ?? this.#global
    if (!policy) return { kind: 'off' }
    const name = keyPolicy ? 'key' : 'default'
    try {
      return {
        kind: 'decided',
        name,
        policy,
        decision: await this.#store.take(`${name}:${limiterKey}`, policy),
      }
    } catch {
      return { kind: 'unavailable', failOpen: this.settings.rateLimitFail === 'open' }
    }
  }

  close(): void {
    this.#redis?.close()
  }
}

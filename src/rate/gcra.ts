/**
 * The rate limit's one algorithm, GCRA (the generic cell rate algorithm), the same in memory
 * and in Redis (redis-store.ts runs this arithmetic in Lua). A policy of `limit` requests per
 * `windowMs` with a burst of `burst` means exactly this: a client with no recent traffic may
 * send `burst` requests at once; after that, one more every `windowMs / limit` milliseconds.
 * The state per client is one number, the theoretical arrival time (TAT) of its next request.
 */
export interface Policy {
  readonly limit: number
  readonly windowMs: number
  readonly burst: number
}

export interface Decision {
  readonly allowed: boolean
  /** Requests the client could send at once right now, after this one. */
  readonly remaining: number
  /** Milliseconds until the client could send a full burst again. */
  readonly resetMs: number
  /** When refused: milliseconds until the next request would be allowed. */
  readonly retryAfterMs: number
  /** The state to store: the new TAT (unchanged when refused). */
  readonly tat: number
}

export const emissionMs = (policy: Policy) => policy.windowMs / policy.limit

export function decide(policy: Policy, storedTat: number, now: number): Decision {
  const interval = emissionMs(policy)
  const capacity = policy.burst * interval
  const tat = Math.max(storedTat, now)
  const next = tat + interval
  if (next - now > capacity) {
    return {
      allowed: false,
      remaining: 0,
      resetMs: Math.ceil(tat - now),
      retryAfterMs: Math.ceil(next - now - capacity),
      tat: storedTat,
    }
  }
  return {
    allowed: true,
    remaining: Math.floor((capacity - (next - now)) / interval + 1e-9),
    resetMs: Math.ceil(next - now),
    retryAfterMs: 0,
    tat: next,
  }
}

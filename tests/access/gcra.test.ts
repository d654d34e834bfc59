import { describe, expect, test } from 'bun:test'
import { decide, type Policy } from '../../src/rate/gcra.ts'

/** A client's requests at the given times (ms), answered in order; the allowed ones. */
function run(policy: Policy, times: readonly number[]): boolean[] {
  let tat = 0
  return times.map((now) => {
    const decision = decide(policy, tat, now)
    tat = decision.tat
    return decision.allowed
  })
}

describe('GCRA: what "limit per window with a burst" means', () => {
  const policy: Policy = { limit: 60, windowMs: 60_000, burst: 10 }

  test('a client with no recent traffic gets exactly its burst at once', () => {
    const allowed = run(
      policy,
      Array.from({ length: 15 }, () => 1_000_000),
    )
    expect(allowed.filter(Boolean)).toHaveLength(10)
    expect(allowed.slice(0, 10).every(Boolean)).toBe(true)
  })

  test('after the burst, one more request every window / limit, and not sooner', () => {
    const burst = Array.from({ length: 10 }, () => 0)
    // window / limit = 1000 ms: at 999 ms nothing yet, at 1000 ms one, at 2000 ms one more.
    expect(run(policy, [...burst, 999, 1000, 1500, 2000])).toEqual([
      ...burst.map(() => true),
      false,
      true,
      false,
      true,
    ])
  })

  test('reports what is left, when the burst is back, and when to retry', () => {
    let tat = 0
    for (let i = 0; i < 9; i++) tat = decide(policy, tat, 0).tat
    const last = decide(policy, tat, 0)
    expect([last.allowed, last.remaining, last.resetMs]).toEqual([true, 0, 10_000])
    const refused = decide(policy, last.tat, 0)
    expect([refused.allowed, refused.retryAfterMs]).toEqual([false, 1000])
  })

  test('a steady client at the limit is never refused; one just over it is', () => {
    const steady = Array.from({ length: 120 }, (_, i) => i * 1000)
    expect(run(policy, steady).every(Boolean)).toBe(true)
    const fast = Array.from({ length: 120 }, (_, i) => i * 900)
    expect(run(policy, fast).filter((ok) => !ok).length).toBeGreaterThan(0)
  })
})

import { decide, type Decision, type Policy } from './gcra.ts'

/**
 * GCRA state in this process, for a single instance. Entries whose burst is full again are
 * worth nothing and are dropped; the map is also capped, so a flood of new client addresses
 * cannot grow it without bound (the oldest entries go first, which only forgives them).
 */
export class MemoryRateStore {
  readonly #tats = new Map<string, number>()

  constructor(private readonly maxEntries = 100_000) {}

  async take(key: string, policy: Policy): Promise<Decision> {
    const now = Date.now()
    const decision = decide(policy, this.#tats.get(key) ?? 0, now)
    if (decision.allowed) {
      this.#tats.delete(key)
      this.#tats.set(key, decision.tat)
      if (this.#tats.size > this.maxEntries) this.#sweep(now)
    }
    return decision
  }

  #sweep(now: number): void {
    for (const [key, tat] of this.#tats) if (tat <= now) this.#tats.delete(key)
    for (const key of this.#tats.keys()) {
      if (this.#tats.size <= this.maxEntries) break
      this.#tats.delete(key)
    }
  }
}

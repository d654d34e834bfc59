import { decide, type Decision, type Policy } from './gcra.ts'

interface Entry {
  readonly key: string
  tat: number
  older?: Entry
  newer?: Entry
}

/**
 * GCRA state in this process, for a single instance. The number of clients kept is capped, so
 * a flood of new client addresses cannot grow it without bound, and they are kept in the order
 * they were last allowed (a doubly linked list beside the Map): making room costs O(1) whatever
 * the number of clients. It drops the least recently allowed clients whose burst is full again
 * (they are worth nothing), then, if still full, the least recently allowed one, which only
 * forgives it. A full scan per new client made 100,000 clients ten times slower; a Map's own
 * insertion order is no cheaper in Bun, where a Map emptied from its front is walked past every
 * deleted slot until it rehashes.
 */
export class MemoryRateStore {
  readonly #entries = new Map<string, Entry>()
  #oldest: Entry | undefined
  #newest: Entry | undefined

  constructor(private readonly maxEntries = 100_000) {}

  get size(): number {
    return this.#entries.size
  }

  async take(key: string, policy: Policy): Promise<Decision> {
    const now = Date.now()
    let entry = this.#entries.get(key)
    const decision = decide(policy, entry?.tat ?? 0, now)
    if (!decision.allowed) return decision
    if (entry) this.#unlink(entry)
    else this.#entries.set(key, (entry = { key, tat: 0 }))
    entry.tat = decision.tat
    this.#append(entry)
    this.#makeRoom(now)
    return decision
  }

  /** The keys from the least to the most recently allowed. */
  *keys(): Generator<string> {
    for (let entry = this.#oldest; entry; entry = entry.newer) yield entry.key
  }

  #makeRoom(now: number): void {
    let oldest = this.#oldest
    while (oldest && (this.#entries.size > this.maxEntries || oldest.tat <= now)) {
      this.#unlink(oldest)
      this.#entries.delete(oldest.key)
      oldest = this.#oldest
    }
  }

  #append(entry: Entry): void {
    entry.older = this.#newest
    entry.newer = undefined
    if (this.#newest) this.#newest.newer = entry
    else this.#oldest = entry
    this.#newest = entry
  }

  #unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer
    else this.#oldest = entry.newer
    if (entry.newer) entry.newer.older = entry.older
    else this.#newest = entry.older
    entry.older = entry.newer = undefined
  }
}

import { describe, expect, test } from 'bun:test'
import { MemoryRateStore } from '../../src/rate/memory-store.ts'

// One request an hour with a burst of one: every client's next slot is an hour away, so no
// entry ever becomes worthless by itself and every new client past the cap evicts one.
const HOURLY = { limit: 1, windowMs: 3_600_000, burst: 1 }

/** Microseconds per new client once the store is full, the best of a few rounds (noise only adds). */
async function costPerNewClient(capacity: number): Promise<number> {
  const store = new MemoryRateStore(capacity)
  for (let i = 0; i < capacity; i++) await store.take(`old-${i}`, HOURLY)
  let best = Infinity
  for (let round = 0; round < 5; round++) {
    const started = performance.now()
    for (let i = 0; i < 2000; i++) await store.take(`new-${round}-${i}`, HOURLY)
    best = Math.min(best, ((performance.now() - started) * 1000) / 2000)
  }
  expect(store.size).toBe(capacity)
  return best
}

describe('the in-memory rate store', () => {
  test('keeps at most its capacity, evicting the least recently allowed client first', async () => {
    const twoAtOnce = { ...HOURLY, burst: 2 }
    const store = new MemoryRateStore(3)
    for (const key of ['a', 'b', 'c']) await store.take(key, twoAtOnce)
    // b is allowed again (the second of its burst), so a is now the least recently allowed.
    expect((await store.take('b', twoAtOnce)).allowed).toBe(true)
    await store.take('d', HOURLY)
    expect([...store.keys()]).toEqual(['c', 'b', 'd'])
    // a was forgiven: its next request is allowed at once.
    expect((await store.take('a', HOURLY)).allowed).toBe(true)
    expect([...store.keys()]).toEqual(['b', 'd', 'a'])
  })

  test('drops clients whose burst is full again before anyone is forgiven', async () => {
    const store = new MemoryRateStore(10)
    await store.take('passing', { limit: 1000, windowMs: 1, burst: 1000 })
    await store.take('steady', HOURLY)
    await Bun.sleep(5)
    await store.take('next', HOURLY)
    expect([...store.keys()]).toEqual(['steady', 'next'])
  })

  test('making room for a new client costs the same with 100,000 clients as with 1,000', async () => {
    const small = await costPerNewClient(1_000)
    const large = await costPerNewClient(100_000)
    // A scan of the whole store made this ratio about 100; the margin leaves room for a large
    // map's cache misses and garbage collection on a busy machine.
    expect(large / small).toBeLessThan(20)
  }, 60_000)
})

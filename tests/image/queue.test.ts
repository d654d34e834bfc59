import { describe, expect, test } from 'bun:test'
import type { AppError } from '../../src/errors/app-error.ts'
import { JobQueue } from '../../src/image/queue.ts'

/** A job whose end the test controls, so nothing here depends on timing. */
function deferredJob() {
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  let started = false
  return {
    job: async () => {
      started = true
      await done
      return 'done'
    },
    finish,
    get started() {
      return started
    },
  }
}

const opts = (timeoutMs: number, costBytes = 10) => ({ timeoutMs, costBytes })

describe('JobQueue', () => {
  test('runs at most `workers` jobs at once and starts waiting ones as slots free', async () => {
    const queue = new JobQueue({ workers: 2, capacity: 5, memoryBudgetBytes: 1000 })
    const jobs = [deferredJob(), deferredJob(), deferredJob()]
    const results = jobs.map((j) => queue.run(j.job, opts(10_000)))
    expect(queue.stats).toEqual({
      running: 2,
      waiting: 1,
      capacity: 5,
      memoryBytes: { used: 20, budget: 1000 },
    })
    expect(jobs[2]!.started).toBe(false)
    jobs[0]!.finish()
    await results[0]
    await Bun.sleep(0)
    expect(jobs[2]!.started).toBe(true)
    jobs[1]!.finish()
    jobs[2]!.finish()
    expect(await Promise.all(results)).toEqual(['done', 'done', 'done'])
    expect(queue.stats).toEqual({
      running: 0,
      waiting: 0,
      capacity: 5,
      memoryBytes: { used: 0, budget: 1000 },
    })
  })

  test('refuses work beyond workers + capacity with OVERLOADED and a Retry-After', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 1000 })
    const a = deferredJob()
    const b = deferredJob()
    const running = [queue.run(a.job, opts(10_000)), queue.run(b.job, opts(10_000))]
    const error = (await queue.run(deferredJob().job, opts(10_000)).catch((e) => e)) as AppError
    expect(error.code).toBe('OVERLOADED')
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    a.finish()
    b.finish()
    await Promise.all(running)
  })

  test('times out a job with PROCESSING_TIMEOUT but keeps its slot until the work really ends', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 1000 })
    const slow = deferredJob()
    const error = (await queue.run(slow.job, opts(20)).catch((e) => e)) as AppError
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    expect(queue.stats.running).toBe(1)
    slow.finish()
    await Bun.sleep(0)
    expect(queue.stats.running).toBe(0)
  })

  test('refuses a job that waits longer than its wait limit as load: 503 OVERLOADED with Retry-After, never started', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 1000 })
    const first = deferredJob()
    const waiting = deferredJob()
    const running = queue.run(first.job, opts(10_000))
    const error = (await queue
      .run(waiting.job, { ...opts(10_000), waitTimeoutMs: 20 })
      .catch((e) => e)) as AppError
    expect(error.code).toBe('OVERLOADED')
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(queue.stats.waiting).toBe(0)
    first.finish()
    await running
    expect(waiting.started).toBe(false)
  })

  test("counts a job's time from its start, not from its arrival: a job that waited is not timed out for it", async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 1000 })
    const first = deferredJob()
    const second = deferredJob()
    const running = queue.run(first.job, opts(10_000))
    const queued = queue.run(second.job, opts(50))
    await Bun.sleep(100)
    expect(second.started).toBe(false)
    first.finish()
    await running
    await Bun.sleep(0)
    expect(second.started).toBe(true)
    second.finish()
    expect(await queued).toBe('done')
  })

  test('counts a request from admission, so uploads still being read fill the queue too', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 1000 })
    const reading = [queue.admit(), queue.admit()]
    expect(queue.stats).toMatchObject({ running: 0, waiting: 2 })
    expect(() => queue.admit()).toThrow(expect.objectContaining({ code: 'OVERLOADED' }))
    reading[0]!.release()
    reading[0]!.release()
    const third = queue.admit()
    expect(queue.stats.waiting).toBe(2)
    third.release()
    reading[1]!.release()
    expect(queue.stats.waiting).toBe(0)
  })

  test('starts a job only when its memory fits the budget, in arrival order', async () => {
    const queue = new JobQueue({ workers: 3, capacity: 3, memoryBudgetBytes: 100 })
    const big = deferredJob()
    const bigger = deferredJob()
    const small = deferredJob()
    const results = [
      queue.run(big.job, opts(10_000, 60)),
      queue.run(bigger.job, opts(10_000, 50)),
      queue.run(small.job, opts(10_000, 10)),
    ]
    await Bun.sleep(0)
    // 60 + 50 is over the budget; the small job waits behind the bigger one rather than overtaking it.
    expect([big.started, bigger.started, small.started]).toEqual([true, false, false])
    expect(queue.stats).toMatchObject({ running: 1, memoryBytes: { used: 60, budget: 100 } })
    big.finish()
    await results[0]
    await Bun.sleep(0)
    expect([bigger.started, small.started]).toEqual([true, true])
    expect(queue.stats.memoryBytes.used).toBe(60)
    bigger.finish()
    small.finish()
    await Promise.all(results)
    expect(queue.stats.memoryBytes.used).toBe(0)
  })

  test('keeps the memory of a timed-out job reserved until the work really ends', async () => {
    const queue = new JobQueue({ workers: 2, capacity: 2, memoryBudgetBytes: 100 })
    const stuck = deferredJob()
    const error = (await queue.run(stuck.job, opts(20, 80)).catch((e) => e)) as AppError
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    expect(queue.stats.memoryBytes.used).toBe(80)
    stuck.finish()
    await Bun.sleep(0)
    expect(queue.stats.memoryBytes.used).toBe(0)
  })

  test('keeps a timed-out job counted as admitted until it ends, so waiting never goes below zero', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 0, memoryBudgetBytes: 1000 })
    const stuck = deferredJob()
    const ticket = queue.admit()
    const error = (await ticket.run(stuck.job, opts(20)).catch((e) => e)) as AppError
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    ticket.release()
    expect(queue.stats).toMatchObject({ running: 1, waiting: 0 })
    expect(() => queue.admit()).toThrow(expect.objectContaining({ code: 'OVERLOADED' }))
    stuck.finish()
    await Bun.sleep(0)
    expect(queue.stats).toMatchObject({ running: 0, waiting: 0 })
    queue.admit().release()
  })
})

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

describe('JobQueue', () => {
  test('runs at most `workers` jobs at once and starts waiting ones as slots free', async () => {
    const queue = new JobQueue({ workers: 2, capacity: 5 })
    const jobs = [deferredJob(), deferredJob(), deferredJob()]
    const results = jobs.map((j) => queue.run(j.job, 10_000))
    expect(queue.stats).toEqual({ running: 2, waiting: 1, capacity: 5 })
    expect(jobs[2]!.started).toBe(false)
    jobs[0]!.finish()
    await results[0]
    await Bun.sleep(0)
    expect(jobs[2]!.started).toBe(true)
    jobs[1]!.finish()
    jobs[2]!.finish()
    expect(await Promise.all(results)).toEqual(['done', 'done', 'done'])
    expect(queue.stats).toEqual({ running: 0, waiting: 0, capacity: 5 })
  })

  test('refuses work beyond workers + capacity with OVERLOADED and a Retry-After', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1 })
    const a = deferredJob()
    const b = deferredJob()
    const running = [queue.run(a.job, 10_000), queue.run(b.job, 10_000)]
    const error = (await queue.run(deferredJob().job, 10_000).catch((e) => e)) as AppError
    expect(error.code).toBe('OVERLOADED')
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    a.finish()
    b.finish()
    await Promise.all(running)
  })

  test('times out a job with PROCESSING_TIMEOUT but keeps its slot until the work really ends', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1 })
    const slow = deferredJob()
    const error = (await queue.run(slow.job, 20).catch((e) => e)) as AppError
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    expect(queue.stats.running).toBe(1)
    slow.finish()
    await Bun.sleep(0)
    expect(queue.stats.running).toBe(0)
  })

  test('drops a job that times out while still waiting', async () => {
    const queue = new JobQueue({ workers: 1, capacity: 1 })
    const first = deferredJob()
    const waiting = deferredJob()
    const running = queue.run(first.job, 10_000)
    const error = (await queue.run(waiting.job, 20).catch((e) => e)) as AppError
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    expect(queue.stats.waiting).toBe(0)
    first.finish()
    await running
    expect(waiting.started).toBe(false)
  })
})

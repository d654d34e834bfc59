import { describe, expect, test } from 'bun:test'
import { cpuUsage } from 'node:process'
import { WALL_CEILING_FACTOR, workerClock } from '../../src/image/job-clock.ts'

describe("a worker job's clock", () => {
  test('counts CPU time while the job works', () => {
    const clock = workerClock()
    const start = cpuUsage()
    let spin = 0
    while (cpuUsage(start).user < 200_000) spin++
    expect(spin).toBeGreaterThan(0)
    expect(clock.now()).toBeGreaterThanOrEqual(200)
  })

  test('counts the wall only at 1/WALL_CEILING_FACTOR while the job waits: a busy machine is not the job', async () => {
    const clock = workerClock()
    const started = performance.now()
    await Bun.sleep(300)
    const wall = performance.now() - started
    const now = clock.now()
    expect(now).toBeGreaterThanOrEqual(wall / WALL_CEILING_FACTOR - 1)
    expect(now).toBeLessThan(wall)
  })
})

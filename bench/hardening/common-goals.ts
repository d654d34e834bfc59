/* The goals every scenario shares: health stays fast, memory within the formula, the server back at rest. */
import { MEMORY_GOAL_RATIO, mib, type MemoryFigures } from './memory.ts'
import { HEALTH_GOAL_MS, type HealthFigures } from './monitor.ts'
import { askOnce, requestHead } from './requests.ts'
import { goal, type Goal } from './scenario.ts'

export function healthGoal(health: HealthFigures): Goal {
  const pass = health.count > 0 && health.failures === 0 && health.maxMs < HEALTH_GOAL_MS
  const failures = health.failures ? ` (${health.failureSamples.join('; ')})` : ''
  return goal(
    `every health probe answered under ${HEALTH_GOAL_MS} ms`,
    pass,
    `${health.count} probes, max ${Math.round(health.maxMs)} ms, ${health.failures} failed${failures}`,
  )
}

/** While it drains, health must say so (503 "draining") for load balancers to move away. */
export function drainingGoal(health: HealthFigures): Goal {
  return goal(
    'health answered 503 "draining" during the drain',
    health.draining > 0,
    `${health.draining} probes`,
  )
}

export function memoryGoal(memory: MemoryFigures): Goal {
  const ratio = memory.peakBytes / memory.boundBytes
  return goal(
    `peak RSS within ${Math.round((MEMORY_GOAL_RATIO - 1) * 100)}% of the bound or under it`,
    ratio <= MEMORY_GOAL_RATIO,
    `peak ${mib(memory.peakBytes)} = ${ratio.toFixed(2)} × bound ${mib(memory.boundBytes)}`,
  )
}

/**
 * After the attack the server must be alive and back at rest: every upload reservation and
 * queue place given back. A job that timed out keeps its worker until its work really ends (an
 * AVIF encode cannot be stopped), so this waits up to the job timeout and a little more.
 */
export async function backAtRest(
  baseUrl: string,
  exitCode: () => number | undefined,
  withinMs: number,
): Promise<Goal> {
  const name = 'alive afterwards, and back at rest (no upload bytes held, no job waiting or running)'
  const started = performance.now()
  let seen = ''
  while (performance.now() - started < withinMs) {
    if (exitCode() !== undefined) return goal(name, false, `the server exited with code ${exitCode()}`)
    const answer = await askOnce(baseUrl, [requestHead('GET', '/api/health', { Connection: 'close' })], 5000)
    if (answer.status === 200) {
      const { uploads, queue } = JSON.parse(answer.body)
      seen = `uploads ${uploads.usedBytes} B, waiting ${queue.waiting}, running ${queue.running}`
      const waited = `${((performance.now() - started) / 1000).toFixed(1)} s`
      if (uploads.usedBytes === 0 && queue.waiting === 0 && queue.running === 0)
        return goal(name, true, `${seen} (after ${waited})`)
    } else seen = `health answered ${answer.status ?? answer.error}`
    await Bun.sleep(200)
  }
  return goal(name, false, `after ${withinMs / 1000} s: ${seen}`)
}

import { cpuUsage } from 'node:process'

/**
 * How a job's time is counted. In a worker process its limit (IMGAPI_JOB_TIMEOUT_MS) is CPU
 * time, user plus system of every thread, so a machine busy with other work does not turn its
 * own load into the image's timeout; and the clock on the wall may run to WALL_CEILING_FACTOR
 * times the limit before the job is stopped as load. One number says where a job stands on
 * both: the larger of its CPU time and its wall time divided by that factor. Searches plan by
 * it (an encode's cost, the time left), so a search on a busy machine keeps the encodes its
 * image needs instead of stopping at a fraction of them and blaming the target.
 */
export interface JobClock {
  /** The job's time so far, in ms, by the measure its limit uses. */
  now(): number
}

/** Wall time may run to this many times the limit; past it the job is the machine's trouble, not the image's. */
export const WALL_CEILING_FACTOR = 2

/** Time in this process, as a worker counts it; starts at 0. */
export function workerClock(): JobClock {
  const cpu0 = cpuUsage()
  const wall0 = performance.now()
  return {
    now: () => {
      const used = cpuUsage(cpu0)
      return Math.max((used.user + used.system) / 1000, (performance.now() - wall0) / WALL_CEILING_FACTOR)
    },
  }
}

/** Time on the wall, for jobs run in the server's own process (the queue's timer counts that). */
export function wallClock(): JobClock {
  const wall0 = performance.now()
  return { now: () => performance.now() - wall0 }
}

import type { JobRunner } from '../image/compress.ts'

/**
 * When a compress job was queued, started on a worker and ended (performance.now()), so the
 * metrics can tell waiting from working for every answer, an error's included.
 */
export interface JobTimes {
  queued?: number
  started?: number
  ended?: number
}

/** The same runner, noting in `times` when its job is queued, starts and ends. */
export function timedRunner(runner: JobRunner, times: JobTimes): JobRunner {
  return {
    run: (job, options) => {
      times.queued = performance.now()
      return runner.run(async () => {
        times.started = performance.now()
        try {
          return await job()
        } finally {
          times.ended = performance.now()
        }
      }, options)
    },
  }
}

/**
 * The phases a job reached by `now` (the answer): a job answered while still waiting (a
 * timeout) waited until then, and one answered while still running (its worker is kept until
 * libvips stops) counts as working until then.
 */
export function phaseSeconds(
  times: JobTimes | undefined,
  now: number,
): { queueSeconds?: number; processingSeconds?: number } {
  if (times?.queued === undefined) return {}
  const waitedUntil = times.started ?? now
  return {
    queueSeconds: (waitedUntil - times.queued) / 1000,
    ...(times.started !== undefined
      ? { processingSeconds: (Math.min(times.ended ?? now, now) - times.started) / 1000 }
      : {}),
  }
}

/*
 * How long a thread waited for a CPU while it was runnable (the kernel's run-queue delay, from
 * /proc/<pid>/task/<tid>/schedstat). On a shared 2-core machine this tells a server that is slow
 * from a server that was not given a CPU: a health probe cannot be answered faster than the
 * server's main thread gets to run.
 */
import { readFileSync } from 'node:fs'

export interface CpuWait {
  /** Milliseconds spent runnable but waiting for a CPU. */
  readonly waitedMs: number
  /** Milliseconds of wall time watched. */
  readonly wallMs: number
}

/** Run-queue wait of a process's main thread (its tid is its pid) in ms; undefined once it is gone. */
function waitedMs(pid: number): number | undefined {
  try {
    const [, waitNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ')
    return Number(waitNs) / 1e6
  } catch {
    return undefined
  }
}

/** Watches a main thread; a process that exits meanwhile keeps its last reading (polled every 100 ms). */
export function watchCpuWait(pid: number): { stop: () => CpuWait } {
  const started = performance.now()
  const first = waitedMs(pid) ?? 0
  let last = first
  const timer = setInterval(() => (last = waitedMs(pid) ?? last), 100)
  return {
    stop: () => {
      clearInterval(timer)
      last = waitedMs(pid) ?? last
      return { waitedMs: last - first, wallMs: performance.now() - started }
    },
  }
}

import { residentBytes } from '../../src/jobs/process-stat.ts'
import { childPids } from './leftover-processes.ts'

/** Resident memory of a server and its worker processes together, from /proc. */
export function treeResidentBytes(pid: number): number {
  return [pid, ...childPids(pid)].reduce((sum, each) => sum + (residentBytes(each) ?? 0), 0)
}

/**
 * Samples a process tree's resident memory every few milliseconds until `stop()`, which gives
 * the highest sum seen: a worker killed over its memory takes its own peak with it, so its
 * RSS counts only while it is alive, as it does for the machine.
 */
export function samplePeak(pid: number, everyMs = 3) {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, treeResidentBytes(pid))), everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(peak, treeResidentBytes(pid))
    },
  }
}

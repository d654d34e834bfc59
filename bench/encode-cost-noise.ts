/*
 * How much of the machine other work took during the run. startCpuWitness in server.ts counts
 * only the children it started itself; the memory children are counted here, once reaped, by
 * the kernel's cutime and cstime.
 */
import { readFileSync } from 'node:fs'
import { machineCpuSeconds } from './server.ts'

// USER_HZ: the unit of /proc CPU times, 100 on every mainstream Linux build.
const TICKS_PER_SECOND = 100

/** User and system CPU seconds of this process, plus those of its children that have exited. */
function ownCpuSeconds(): number {
  // After the parenthesised command name: utime, stime, cutime, cstime are fields 14 to 17.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / TICKS_PER_SECOND
}

/** CPUs kept busy by other processes (or the hypervisor) on average since the call. */
export function startNoiseWitness(): { otherCpus: () => number } {
  const machine0 = machineCpuSeconds()
  const own0 = ownCpuSeconds()
  const started = performance.now()
  return {
    otherCpus: () => {
      const others = machineCpuSeconds() - machine0 - (ownCpuSeconds() - own0)
      return Math.max(0, others) / ((performance.now() - started) / 1000)
    },
  }
}

/*
 * What /proc says about a process (its memory, its CPU time, its children) and about the whole
 * machine, and a witness of how much other work ran beside a benchmark.
 */
import { readFileSync } from 'node:fs'

const SAMPLE_EVERY_MS = 100

/** Reads a `/proc/<pid>/status` size field (VmRSS, VmHWM) in bytes; undefined once the process is gone. */
export function procStatusBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(
      new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'),
    )
    return match ? Number(match[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

/** Keeps the largest value `read` returns (an RSS), polled every ~100 ms until stopped. */
export function startPeakSampler(read: () => number | undefined): { stop: () => number } {
  let peak = read() ?? 0
  const timer = setInterval(() => {
    peak = Math.max(peak, read() ?? 0)
  }, SAMPLE_EVERY_MS)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(peak, read() ?? 0)
    },
  }
}

// USER_HZ: the unit of /proc CPU times, 100 on every mainstream Linux build.
const TICKS_PER_SECOND = 100

/**
 * CPU seconds from /proc/<pid>/stat, summed over the fields named by their index after the
 * parenthesised command name: utime 11, stime 12 (the 14th and 15th overall), then the reaped
 * children's cutime 13 and cstime 14; 0 once the process is gone.
 */
function statCpuSeconds(pid: number | 'self', fields: readonly number[]): number {
  try {
    const values = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return fields.reduce((sum, field) => sum + Number(values[field]), 0) / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

/** User + system CPU seconds of a process, all threads; 0 once it is gone. */
export const procCpuSeconds = (pid: number | 'self') => statCpuSeconds(pid, [11, 12])

/** A process and its children (a server and its worker processes), from /proc. */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])]
  } catch {
    return [pid]
  }
}

/** CPU of a process's children that ended and were waited for (cutime and cstime). */
const reapedCpuSeconds = (pid: number) => statCpuSeconds(pid, [13, 14])

/** CPU seconds of a server and its workers together, those it has already reaped included. */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + procCpuSeconds(each), 0) + reapedCpuSeconds(pid)
}

/** RSS (or each one's peak, summed: an upper bound of the peak) of a server and its workers together. */
export function treeStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const values = processTree(pid).map((each) => procStatusBytes(each, field))
  return values.every((value) => value === undefined)
    ? undefined
    : values.reduce<number>((a, b) => a + (b ?? 0), 0)
}

/** CPU seconds spent by the whole machine: every /proc/stat column except idle and iowait. */
export function machineCpuSeconds(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND
}

/**
 * CPUs kept busy by other processes (or the hypervisor) on average since the call, for a
 * benchmark whose children are not servers: they are counted once reaped, by the kernel's
 * cutime and cstime. (startCpuWitness in server.ts counts the servers it started while they run.)
 */
export function startNoiseWitness(): { otherCpus: () => number } {
  const ownCpuSeconds = () => statCpuSeconds('self', [11, 12, 13, 14])
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

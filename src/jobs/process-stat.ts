import { readFileSync } from 'node:fs'

/*
 * What the pool reads of a worker process from /proc, cheaply enough to do every 10 ms: its
 * resident memory and the CPU time it has used. Bun has no setrlimit, and an address-space
 * limit below about 2.3 GB stops Bun itself, so memory is watched rather than limited; and a
 * job's time is its worker's CPU time, which a busy machine does not inflate.
 */

/** The kernel's USER_HZ: /proc reports CPU times in these ticks, 100 a second on every Linux ABI. */
const TICKS_PER_SECOND = 100

/** Resident memory from /proc/<pid>/status (VmRSS, in kB whatever the page size); undefined when gone or not Linux. */
export function residentBytes(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1')
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
    return kib === undefined ? undefined : Number(kib) * 1024
  } catch {
    return undefined
  }
}

/** User plus system CPU time of every thread of the process, in ms; undefined when gone or not Linux. */
export function cpuMillis(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined
  } catch {
    return undefined
  }
}

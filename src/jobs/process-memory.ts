import { readFileSync } from 'node:fs'

/**
 * A process's resident memory from /proc/<pid>/status (VmRSS, in kB, whatever the page size),
 * or undefined when it cannot be read (the process is gone, or this is not Linux). Cheap enough
 * to read every 50 ms: Bun has no setrlimit, and an address-space limit below about 2.3 GB
 * stops Bun itself, so memory is watched rather than limited.
 */
export function residentBytes(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1')
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
    return kib === undefined ? undefined : Number(kib) * 1024
  } catch {
    return undefined
  }
}

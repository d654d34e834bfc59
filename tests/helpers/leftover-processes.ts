import { readdirSync, readFileSync } from 'node:fs'

/**
 * Every process a test run starts carries this variable with the run's id, so that what is
 * still alive after the run (a server a test forgot, a worker that outlived its server) can be
 * found, reported and killed, whatever else runs on the machine.
 */
export const TEST_RUN_ENV = 'IMGAPI_TEST_RUN'

export interface Leftover {
  readonly pid: number
  readonly command: string
}

/** Processes other than this one whose environment carries `runId`. */
export function processesOfRun(runId: string): Leftover[] {
  const marker = `${TEST_RUN_ENV}=${runId}`
  const found: Leftover[] = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')
      if (!environ.includes(marker)) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim()
      found.push({ pid, command })
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/** The child processes of `pid`, from /proc (Linux). */
export function childPids(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim()
    return text ? text.split(/\s+/).map(Number) : []
  } catch {
    return []
  }
}

/** CPU time a process has used so far, in clock ticks (utime + stime). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

import { dlopen } from 'bun:ffi'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * Worker processes pinned to CPUs of their own. Left to the scheduler, two workers on two
 * CPUs did measurably less than the same jobs in the server's own threads; pinned, they do as
 * much or more. Measured on 2 CPUs (bench:peers --isolation, workers against jobs in the server
 * process): JPEG at width 1600 from 0.94-0.95 to 0.99, 256 px thumbnails from 0.96-1.02 to
 * 1.05-1.06. A pinned worker's next job finds its CPU's caches as its last job left them.
 */
export type PinWorkers = 'auto' | 'on' | 'off'

/** The per-worker variable that tells a worker its CPU; set by the pool, never by an operator. */
export const WORKER_CPU_ENV = 'IMGAPI_WORKER_CPU'

/**
 * The CPUs workers are pinned to, in the order slots take them, or undefined for none. `auto`
 * pins only when the workers are exactly as many as the CPUs the server may run on (the
 * default count): each CPU then has one worker and no CPU is left out, so pinning never
 * leaves a job waiting on a busy CPU while another idles for want of a worker of its own.
 * With one CPU there is nothing to choose.
 */
export function workerCpus(
  mode: PinWorkers,
  workers: number,
  allowed: readonly number[],
): readonly number[] | undefined {
  if (mode === 'off' || allowed.length < 2) return undefined
  if (mode === 'auto' && workers !== allowed.length) return undefined
  return allowed
}

/** A `Cpus_allowed_list` value ("0-3,8,10-11") as CPU numbers; empty when it cannot be read. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = []
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (!match) return []
    const first = Number(match[1])
    const last = match[2] === undefined ? first : Number(match[2])
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu)
  }
  return cpus
}

/** The CPUs this process may run on (its affinity: a container's cpuset, `taskset`); empty off Linux. */
export function allowedCpus(): number[] {
  try {
    const status = readFileSync('/proc/self/status', 'latin1')
    return parseCpuList(/^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1] ?? '')
  } catch {
    return []
  }
}

/** The CPU this worker was given, if any (WORKER_CPU_ENV). */
export function assignedCpu(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = env[WORKER_CPU_ENV]
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}

/**
 * Pins every thread of this process to `cpu`; threads started later inherit it from the thread
 * that starts them. Where it is not glibc on Linux, or the system refuses (a seccomp policy), or
 * a thread ends meanwhile, that thread or the whole worker simply runs unpinned, as before.
 */
export function pinThisProcess(cpu: number): void {
  if (process.platform !== 'linux') return
  try {
    const libc = dlopen('libc.so.6', { sched_setaffinity: { args: ['i32', 'u64', 'ptr'], returns: 'i32' } })
    // A glibc cpu_set_t: 1024 CPUs, one bit each.
    const mask = new Uint8Array(Math.max(128, (cpu >> 3) + 1))
    mask[cpu >> 3]! |= 1 << (cpu & 7)
    for (const task of readdirSync('/proc/self/task'))
      libc.symbols.sched_setaffinity(Number(task), mask.byteLength, mask)
    libc.close()
  } catch {
    // Not glibc (no libc.so.6): nothing to pin with.
  }
}

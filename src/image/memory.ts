import { dlopen } from 'bun:ffi'

/**
 * glibc gives every thread that allocates its own malloc arena; libvips' worker threads then
 * keep freed image buffers in many arenas, and resident memory roughly doubles. Capping the
 * arenas is what MALLOC_ARENA_MAX does, but that variable must be set before the process
 * starts; mallopt(M_ARENA_MAX) applies the same cap from inside, before sharp starts threads.
 * Measured with bench/throughput/throughput.ts on 2 CPUs: 4 arenas cut peak RSS by about 30%
 * at equal CPU per image; 2 arenas cut it by half but made the server's threads contend for them.
 */
const M_ARENA_MAX = -8

/** glibc's mallopt for each (option, value) in order; false where one fails or it is not glibc. */
function mallopt(settings: readonly (readonly [number, number])[]): boolean {
  if (process.platform !== 'linux') return false
  try {
    const libc = dlopen('libc.so.6', { mallopt: { args: ['i32', 'i32'], returns: 'i32' } })
    const ok = settings.every(([option, value]) => libc.symbols.mallopt(option, value) === 1)
    libc.close()
    return ok
  } catch {
    // Not glibc (e.g. musl, which has no arenas and no such thresholds): nothing to set.
    return false
  }
}

export function capMallocArenas(arenas: number): boolean {
  return mallopt([[M_ARENA_MAX, arenas]])
}

let libc: { readonly trim: () => void } | undefined

/**
 * Gives freed heap pages back to the system (glibc's malloc_trim): a worker between jobs keeps
 * what libvips freed otherwise, and its resident memory, which the server watches and the README's
 * bound counts, would stay at its last job's peak. A no-op where it is not glibc.
 */
export function trimMalloc(): void {
  if (process.platform !== 'linux') return
  try {
    libc ??= (() => {
      const lib = dlopen('libc.so.6', { malloc_trim: { args: ['u64'], returns: 'i32' } })
      return { trim: () => void lib.symbols.malloc_trim(0) }
    })()
    libc.trim()
  } catch {
    libc = { trim: () => {} }
  }
}

const M_TRIM_THRESHOLD = -1
const M_MMAP_THRESHOLD = -3
/** glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX): half a thread arena's heap. */
const MMAP_THRESHOLD_MAX = 32 * 1024 * 1024

/**
 * Lets freed memory up to `keepBytes` stay in the process, as the worker's keep policy means
 * it to: glibc otherwise hands it back on its own, unmapping every block over its mmap
 * threshold (a progressive JPEG's coefficients, a decoded photo) as it is freed and trimming
 * a heap whose free top passes the trim threshold, so the next job faults the pages in again,
 * a page at a time. What is kept is bounded by trimMalloc, called between jobs.
 */
export function keepFreedMemory(keepBytes: number): boolean {
  if (keepBytes <= 0) return false
  return mallopt([
    [M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX],
    [M_TRIM_THRESHOLD, Math.min(keepBytes, 2 ** 31 - 1)],
  ])
}

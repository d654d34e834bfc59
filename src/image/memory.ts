import { dlopen } from 'bun:ffi'

/**
 * glibc gives every thread that allocates its own malloc arena; libvips' worker threads then
 * keep freed image buffers in many arenas, and resident memory roughly doubles. Capping the
 * arenas is what MALLOC_ARENA_MAX does, but that variable must be set before the process
 * starts; mallopt(M_ARENA_MAX) applies the same cap from inside, before sharp starts threads.
 * Measured with bench/throughput.ts on 2 CPUs: 4 arenas cut peak RSS by about 30% at equal
 * CPU per image; 2 arenas cut it by half but made the server's threads contend for them.
 */
const M_ARENA_MAX = -8

export function capMallocArenas(arenas: number): boolean {
  if (process.platform !== 'linux') return false
  try {
    const libc = dlopen('libc.so.6', { mallopt: { args: ['i32', 'i32'], returns: 'i32' } })
    const ok = libc.symbols.mallopt(M_ARENA_MAX, arenas) === 1
    libc.close()
    return ok
  } catch {
    // Not glibc (e.g. musl, which has no arenas): nothing to cap.
    return false
  }
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

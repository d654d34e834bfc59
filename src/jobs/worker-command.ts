import { resolve } from 'node:path'
import { EMBEDDED_LIBVIPS } from '../image/native/embedded-libvips.ts'

/**
 * How to start a worker: the same program in its worker mode. Inside the single executable
 * (the one build that embeds libvips) that is the executable itself; from source it is Bun
 * running src/index.ts.
 */
export function workerCommand(): string[] {
  return EMBEDDED_LIBVIPS
    ? [process.execPath, '--worker']
    : [process.execPath, resolve(import.meta.dir, '../index.ts'), '--worker']
}

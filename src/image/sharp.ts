import type SharpModule from 'sharp'
import { capMallocArenas } from './memory.ts'

/**
 * The one place that knows how sharp is loaded and tuned. Everything else imports `sharp`
 * from here, so that packaging (e.g. a libvips library carried inside an executable) has a
 * single seam.
 */

// Before sharp starts its threads, unless the operator chose a value of their own.
if (process.env.MALLOC_ARENA_MAX === undefined) capMallocArenas(4)

// The CommonJS entry, on purpose: its require() calls are static, so `bun build --compile`
// embeds the native addon; the ESM entry loads it through createRequire, which it cannot follow.
const sharp: typeof SharpModule = require('sharp')

// libvips' operation cache helps programs that re-read the same file; a server that sees each
// upload once only pays memory for it.
sharp.cache(false)

// One libvips thread per image: the job queue already runs one image per CPU (IMGAPI_WORKERS),
// so more threads per image only contend. sharp picks 1 by itself on glibc, but switches to
// one per CPU when MALLOC_ARENA_MAX is set (a useful memory setting); pinning it keeps the
// behaviour the same either way.
sharp.concurrency(1)

export { sharp }
export type { JpegOptions, Sharp, Metadata } from 'sharp'

export function engineVersions(): { sharp: string; libvips: string } {
  return { sharp: sharp.versions.sharp ?? 'unknown', libvips: sharp.versions.vips }
}

/*
 * The baseline two studies compare imgapi with: what POST /api/compress?format=webp&width=1600
 * runs for a JPEG (src/image/pipeline.ts, plan.ts, steps/*.ts, encoders.ts), option for option,
 * in this process with sharp, tuned as the service tunes it, so only imgapi's own path differs.
 */
import sharp from 'sharp'
import { capMallocArenas } from '../../src/image/memory.ts'

// As the service does (src/image/sharp.ts): each upload is seen once, so caching only costs
// memory; and glibc's malloc arenas are capped the same way.
if (process.env.MALLOC_ARENA_MAX === undefined) capMallocArenas(4)
sharp.cache(false)
// As the service does: one libvips thread per image, the concurrency comes from the jobs.
sharp.concurrency(1)

export function encodeWebp1600(bytes: Uint8Array): Promise<Uint8Array> {
  return sharp(bytes, { animated: false, limitInputPixels: 100_000_000, failOn: 'truncated' })
    .timeout({ seconds: 30 })
    .autoOrient()
    .resize({ width: 1600, fit: 'inside', withoutEnlargement: true, background: '#ffffff' })
    .webp({ quality: 80, lossless: false, effort: 4 })
    .toBuffer()
}

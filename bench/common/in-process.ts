/*
 * imgapi in this process, as the quality and smart-mode studies run it: compressImage, as
 * POST /api/compress runs it minus HTTP, with the server's default settings and one worker,
 * timed end to end (probe, decode, every encode and score of a search), one job at a time.
 */
import { cpuUsage } from 'node:process'
import { configWith } from '../../src/config.ts'
import { compressImage, type CompressDeps } from '../../src/image/compress.ts'
import { JobQueue } from '../../src/image/queue.ts'
import { InProcessExecutor } from '../../src/image/executor.ts'
import { parseCompressOptions } from '../../src/options/parse.ts'

export interface ImgapiRun {
  readonly data: Uint8Array
  readonly wallMs: number
  /** This process's CPU, every thread: libvips, the encoders' own threads, the SSIM in JavaScript. */
  readonly cpuMs: number
  readonly quality?: number
  readonly similarity?: number
  readonly encodes: number
  readonly outputFormat: string
  readonly kind: string
}

const config = configWith({})
const GIB = 2 ** 30

const deps: CompressDeps = {
  runner: new JobQueue({ workers: 1, capacity: 100, memoryBudgetBytes: 8 * GIB }),
  executor: new InProcessExecutor(),
  limits: { ...config, decodeBudgetBytes: 8 * GIB },
}

/** One request's worth of work, with its query as the service would receive it. */
export async function runImgapi(input: Uint8Array, query: Record<string, string>): Promise<ImgapiRun> {
  const options = parseCompressOptions(new Map(Object.entries(query)), config)
  const cpu0 = cpuUsage()
  const started = performance.now()
  const result = await compressImage(input, options, deps)
  const wallMs = performance.now() - started
  const cpu = cpuUsage(cpu0)
  return {
    data: result.data,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    quality: result.quality,
    similarity: result.similarity?.score,
    encodes: result.encodes,
    outputFormat: result.outputFormat,
    kind: result.kind,
  }
}

/**
 * Each codec and the SSIM code once on a small image, unmeasured, so that no library's first
 * use (and no cold JIT) is timed in the first image's runs.
 */
export async function warmUpImgapi(png: Uint8Array, formats: readonly string[]): Promise<void> {
  for (const format of formats) {
    await runImgapi(png, { format, width: '64' })
    await runImgapi(png, { format, width: '64', quality: 'auto' })
  }
}

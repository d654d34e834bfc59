/**
 * How cost grows with size: CPU time and peak resident memory per output megapixel, for each
 * output format at 1, 4, 16 and 64 MP. The input is a corpus photo enlarged to each size (a
 * JPEG at quality 90); each job runs alone in a fresh child process (compressImage, as POST
 * /api/compress runs it minus HTTP, at the format's defaults), which reports its CPU and its
 * peak RSS above what it held before the job, so one job's memory is not hidden by another's.
 * Limits are raised to what the sizes need. AVIF at 64 MP takes minutes on 2 CPUs: it is
 * skipped unless --all is given, and says so.
 * Called by bench/run.ts; alone: bun bench/cost-growth/cost-growth.ts [--all]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuUsage } from 'node:process'
import { parseArgs } from 'node:util'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { procStatusBytes } from '../common/proc.ts'

const PHOTO = 'photo-forest-path-4mp.jpg'
const SIZES_MP = [1, 4, 16, 64] as const
const FORMATS = ['jpeg', 'webp', 'avif', 'png'] as const
const MIB = 2 ** 20

interface Measured {
  readonly cpuMs: number
  readonly peakMiB: number
  readonly outputMp: number
}

const statusMiB = (field: 'VmRSS' | 'VmHWM') => procStatusBytes('self', field)! / MIB

/** In the child: one job, its CPU and its peak RSS above the process's own before it. */
async function child(input: string, format: string): Promise<void> {
  const { configWith } = await import('../../src/config.ts')
  const { compressImage } = await import('../../src/image/compress.ts')
  const { JobQueue } = await import('../../src/image/queue.ts')
  const { InProcessExecutor } = await import('../../src/image/executor.ts')
  const { parseCompressOptions } = await import('../../src/options/parse.ts')
  const config = configWith({
    maxInputPixels: 80_000_000,
    maxOutputPixels: 80_000_000,
    maxUploadBytes: 256 * MIB,
    jobTimeoutMs: 600_000,
  })
  const deps = {
    runner: new JobQueue({ workers: 1, capacity: 1, memoryBudgetBytes: 16 * 1024 * MIB }),
    executor: new InProcessExecutor(),
    limits: { ...config, decodeBudgetBytes: 16 * 1024 * MIB },
  }
  const bytes = readFileSync(input)
  const options = parseCompressOptions(new Map([['format', format]]), config)
  const before = statusMiB('VmRSS')
  const cpu0 = cpuUsage()
  const result = await compressImage(bytes, options, deps)
  const cpu = cpuUsage(cpu0)
  const measured: Measured = {
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakMiB: statusMiB('VmHWM') - before,
    outputMp: (result.width * result.height) / 1e6,
  }
  console.log(JSON.stringify(measured))
}

async function makeInputs(dir: string): Promise<Map<number, string>> {
  const { default: sharp } = await import('sharp')
  const source = sharp(join(CORPUS, PHOTO))
  const { width, height } = await source.metadata()
  const inputs = new Map<number, string>()
  for (const mp of SIZES_MP) {
    const scale = Math.sqrt((mp * 1e6) / (width! * height!))
    const path = join(dir, `${mp}mp.jpg`)
    await sharp(join(CORPUS, PHOTO))
      .resize(Math.round(width! * scale), Math.round(height! * scale))
      .jpeg({ quality: 90 })
      .toFile(path)
    inputs.set(mp, path)
  }
  return inputs
}

function runChild(input: string, format: string): Measured {
  const run = Bun.spawnSync([process.execPath, import.meta.path, '--child', input, format], {
    stderr: 'pipe',
  })
  if (run.exitCode !== 0) throw new Error(run.stderr.toString().trim().split('\n').slice(-3).join(' '))
  return JSON.parse(run.stdout.toString().trim().split('\n').at(-1)!) as Measured
}

export async function benchCostGrowth(
  all: boolean,
  log: (line: string) => void = console.error,
): Promise<string> {
  if (!existsSync(join(CORPUS, PHOTO))) return `cost-growth: skipped, no corpus at ${CORPUS}`
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-cost-growth-'))
  try {
    const inputs = await makeInputs(dir)
    const lines: string[] = []
    for (const format of FORMATS) {
      const cells: string[] = []
      for (const mp of SIZES_MP) {
        if (format === 'avif' && mp === 64 && !all) {
          cells.push('skipped (minutes; --all)'.padStart(26))
          continue
        }
        try {
          const m = runChild(inputs.get(mp)!, format)
          const cpu = (m.cpuMs / m.outputMp).toFixed(0)
          const rss = (m.peakMiB / m.outputMp).toFixed(1)
          cells.push(`${cpu} ms, ${rss} MiB`.padStart(26))
        } catch (error) {
          cells.push(`failed: ${error instanceof Error ? error.message : String(error)}`)
        }
        log(`cost-growth: ${format} ${mp} MP`)
      }
      lines.push(`${format.padEnd(6)}${cells.join('')}`)
    }
    return [
      `How cost grows: CPU and peak RSS above idle per output megapixel, one job per fresh process, default settings (${PHOTO} enlarged):`,
      `format${SIZES_MP.map((mp) => `${mp} MP`.padStart(26)).join('')}`,
      ...lines,
    ].join('\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    options: { child: { type: 'boolean' }, all: { type: 'boolean' } },
    allowPositionals: true,
  })
  if (values.child) await child(positionals[0]!, positionals[1]!)
  else console.log(await benchCostGrowth(Boolean(values.all)))
}

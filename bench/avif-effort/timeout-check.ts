/*
 * Does every corpus photo, at its own size and up to 24 MP, become an AVIF at the defaults
 * within the job timeout? Each photo (and each one scaled up to about 24 MP) is encoded at the
 * default quality with the effort the table picks for its size, and with effort 4, in a child
 * process per encode, as a worker runs one: the figure is that process's CPU time, the job
 * timeout's own measure (IMGAPI_JOB_TIMEOUT_MS, 30 s by default).
 *
 * Usage: bun bench/avif-effort/timeout-check.ts [--efforts table,4]
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultEffort, FORMAT_TABLE } from '../../src/formats/format-table.ts'
import { CORPUS } from '../../tests/helpers/paths.ts'

const TIMEOUT_MS = 30_000
const QUALITY = FORMAT_TABLE.avif.tunables.quality!.default

if (process.argv[2] === '--encode') {
  // The child: one photo, one size, one effort; prints its CPU time and bytes.
  const [, , , file, megapixels, effort] = process.argv
  const { sharp } = await import('../../src/image/sharp.ts')
  sharp.concurrency(1)
  const meta = await sharp(file!).metadata()
  const scale =
    Number(megapixels) > 0 ? Math.sqrt((Number(megapixels) * 1e6) / (meta.width! * meta.height!)) : 1
  const before = process.cpuUsage()
  const out = await sharp(file!)
    .autoOrient()
    .resize(scale === 1 ? undefined : { width: Math.round(meta.width! * scale) })
    .avif({ quality: QUALITY, effort: Number(effort) })
    .toBuffer({ resolveWithObject: true })
  const used = process.cpuUsage(before)
  console.log(
    JSON.stringify({
      cpuMs: (used.user + used.system) / 1000,
      bytes: out.data.length,
      pixels: out.info.width * out.info.height,
    }),
  )
  process.exit(0)
}

const { values: args } = parseArgs({ options: { efforts: { type: 'string', default: 'table,4' } } })
if (!existsSync(CORPUS)) {
  console.log(`[skipped] the shared corpus is not at ${CORPUS}`)
  process.exit(0)
}
const photos = readdirSync(CORPUS).filter((name) => /^photo-.*\.jpg$/.test(name))
const efforts = args.efforts!.split(',')
console.log(`AVIF at quality ${QUALITY}, CPU time of one encode (job timeout ${TIMEOUT_MS} ms):`)
let worst = 0
for (const photo of photos) {
  for (const megapixels of [0, 24]) {
    const cells: string[] = []
    for (const which of efforts) {
      const probe = Bun.spawnSync([
        process.execPath,
        import.meta.path,
        '--encode',
        join(CORPUS, photo),
        String(megapixels),
        '0',
      ])
      const pixels = JSON.parse(probe.stdout.toString()).pixels as number
      const effort =
        which === 'table' ? defaultEffort(FORMAT_TABLE.avif.tunables.effort!, pixels) : Number(which)
      const run = Bun.spawnSync([
        process.execPath,
        import.meta.path,
        '--encode',
        join(CORPUS, photo),
        String(megapixels),
        String(effort),
      ])
      const { cpuMs, bytes } = JSON.parse(run.stdout.toString()) as { cpuMs: number; bytes: number }
      if (which === 'table') worst = Math.max(worst, cpuMs)
      cells.push(
        `effort ${effort}${which === 'table' ? ' (table)' : ''}: ${Math.round(cpuMs)} ms, ${Math.round(bytes / 1024)} KiB`,
      )
    }
    console.log(`${photo}${megapixels ? ` at ${megapixels} MP` : ''}: ${cells.join('; ')}`)
  }
}
console.log(
  `\nslowest at the table's efforts: ${Math.round(worst)} ms of ${TIMEOUT_MS} (${worst < TIMEOUT_MS ? 'within' : 'PAST'} the job timeout)`,
)

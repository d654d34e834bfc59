/*
 * Progressive against baseline JPEG, the two modes `progressive=` chooses between, on every
 * corpus photo: output bytes and encoder CPU time (median of N encodes of pixels decoded once,
 * so only the encoder is timed; CPU time, because wall time on a shared machine is noise).
 * Both use the service's own JPEG settings. These figures decided the documented default.
 *
 * Usage: bun bench/jpeg-progressive.ts [--quality 80] [--runs 3] [--width 1600] [--json]
 * (`--width` first shrinks each photo to at most that width, as a web-sized request would.)
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CreateRaw } from 'sharp'
import { jpegOptions } from '../src/image/encoders.ts'
import { sharp } from '../src/image/sharp.ts'

const CORPUS_DIR = resolve(import.meta.dir, '../../shared/corpus/public')
const { values } = parseArgs({
  options: {
    quality: { type: 'string', default: '80' },
    runs: { type: 'string', default: '3' },
    width: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})
const quality = Number(values.quality)
const runs = Number(values.runs)
const width = values.width === undefined ? undefined : Number(values.width)

interface Row {
  readonly file: string
  readonly megapixels: number
  readonly baselineBytes: number
  readonly progressiveBytes: number
  readonly baselineMs: number
  readonly progressiveMs: number
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)

/** Every photo in the corpus, whatever its format, that this libvips build can read. */
function photoFiles(): string[] {
  const [, ...lines] = readFileSync(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').trim().split('\n')
  const readable = (file: string) =>
    !file.endsWith('.jxl') ||
    (sharp.format as unknown as Record<string, { input: { file: boolean } }>).jxl?.input.file
  return lines
    .map((line) => line.split('\t')[0]!)
    .filter((file) => /(^|-)photo-/.test(file) && !file.startsWith('bad-') && readable(file))
}

async function encode(pixels: Buffer, raw: CreateRaw, progressive: boolean) {
  const times: number[] = []
  let bytes = 0
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage()
    const out = await sharp(pixels, { raw })
      .jpeg(jpegOptions({ quality, progressive, chromaSubsampling: '4:2:0' }))
      .toBuffer()
    const used = process.cpuUsage(started)
    times.push((used.user + used.system) / 1000)
    bytes = out.length
  }
  return { bytes, ms: median(times) }
}

async function measure(file: string): Promise<Row> {
  const { data, info } = await sharp(join(CORPUS_DIR, file))
    .autoOrient()
    .resize({ width, withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const baseline = await encode(data, raw, false)
  const progressive = await encode(data, raw, true)
  return {
    file,
    megapixels: (info.width * info.height) / 1e6,
    baselineBytes: baseline.bytes,
    progressiveBytes: progressive.bytes,
    baselineMs: baseline.ms,
    progressiveMs: progressive.ms,
  }
}

const rows: Row[] = []
for (const file of photoFiles()) rows.push(await measure(file))

const ratio = (a: number, b: number) => (a / b).toFixed(3)
if (values.json) {
  console.log(JSON.stringify({ quality, runs, width, rows }, null, 2))
} else {
  const size = width === undefined ? 'full size' : `at most ${width} px wide`
  console.log(`JPEG q${quality}, 4:2:0, ${size}, median of ${runs} encodes; ratio = progressive / baseline`)
  console.log(
    'file\tMP\tbaseline B\tprogressive B\tbytes ratio\tbaseline CPU ms\tprogressive CPU ms\ttime ratio',
  )
  for (const r of rows)
    console.log(
      [
        r.file,
        r.megapixels.toFixed(1),
        r.baselineBytes,
        r.progressiveBytes,
        ratio(r.progressiveBytes, r.baselineBytes),
        r.baselineMs.toFixed(0),
        r.progressiveMs.toFixed(0),
        ratio(r.progressiveMs, r.baselineMs),
      ].join('\t'),
    )
  const bytesBase = sum(rows.map((r) => r.baselineBytes))
  const bytesProg = sum(rows.map((r) => r.progressiveBytes))
  const msBase = sum(rows.map((r) => r.baselineMs))
  const msProg = sum(rows.map((r) => r.progressiveMs))
  const smaller = rows.filter((r) => r.progressiveBytes < r.baselineBytes).length
  const totals = [bytesBase, bytesProg, ratio(bytesProg, bytesBase), msBase.toFixed(0), msProg.toFixed(0)]
  console.log(['total', '', ...totals, ratio(msProg, msBase)].join('\t'))
  console.log(`progressive smaller on ${smaller} of ${rows.length} photos`)
}

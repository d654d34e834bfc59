/*
 * Which AVIF effort (and libaom tune) a request should get by default, by output size. For
 * each photo, each size (2, 6, 12 and 24 MP, resized from the corpus photos with lanczos3) and
 * each variant, the bytes and the encoder's CPU time needed to reach a similarity target (luma
 * SSIM at up to 1 MP, the service's own metric: 0.98 and 0.99, auto-high and auto) are
 * interpolated along a quality ladder, and compared with effort 4 at the same size. CPU time is
 * user plus system of this process around the encode, with one libvips thread, as in a worker:
 * another program on the machine slows the clock, not this figure.
 *
 * Usage: bun bench/avif-effort/avif-effort.ts [--sizes 2,6,12,24] [--efforts 0,1,2,3,4]
 *        [--tunes auto,ssim] [--photos bird,dandelions] [--quick]
 * Writes results/avif-effort.json and prints the table the study's README shows.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cpuUsage } from 'node:process'
import { parseArgs } from 'node:util'
import { sharp } from '../../src/image/sharp.ts'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { prepareReference, scoreCandidate, type PreparedReference } from '../../src/image/search/index.ts'

const PHOTOS: Readonly<Record<string, string>> = {
  bird: 'photo-bird-nuthatch-20mp.jpg',
  dandelions: 'photo-dandelions-16mp-progressive.jpg',
  saw: 'photo-circular-saw-6mp.jpg',
}
const TARGETS = [0.98, 0.99] as const

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2,6,12,24' },
    efforts: { type: 'string', default: '0,1,2,3,4' },
    tunes: { type: 'string', default: 'auto' },
    photos: { type: 'string', default: 'bird,dandelions' },
    quick: { type: 'boolean', default: false },
  },
})
const list = (text: string) => text.split(',').map((each) => each.trim())
const SIZES = list(args.sizes!).map(Number)
const EFFORTS = list(args.efforts!).map(Number)
const TUNES = list(args.tunes!) as ('auto' | 'iq' | 'ssim' | 'psnr')[]

interface Raw {
  readonly data: Buffer
  readonly info: { width: number; height: number; channels: 3 }
}

interface Point {
  readonly quality: number
  readonly bytes: number
  readonly cpuMs: number
  readonly ssim: number
}

/** The photo at about `megapixels`, decoded once: every variant encodes the same pixels. */
async function pixelsAt(file: string, megapixels: number): Promise<Raw> {
  const meta = await sharp(file).metadata()
  const scale = Math.sqrt((megapixels * 1e6) / (meta.width! * meta.height!))
  const { data, info } = await sharp(file)
    .autoOrient()
    .resize({ width: Math.round(meta.width! * scale), kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, info: { width: info.width, height: info.height, channels: 3 } }
}

async function encodeAt(
  raw: Raw,
  reference: PreparedReference,
  quality: number,
  effort: number,
  tune: string,
) {
  const before = cpuUsage()
  const bytes = await sharp(raw.data, { raw: raw.info })
    .avif({ quality, effort, tune: tune as 'iq', chromaSubsampling: '4:2:0' })
    .toBuffer()
  const used = cpuUsage(before)
  const { score } = await scoreCandidate(reference, new Uint8Array(bytes))
  return { quality, bytes: bytes.length, cpuMs: (used.user + used.system) / 1000, ssim: score }
}

/**
 * Encodes along qualities until each target is bracketed by two points at most `step` apart
 * (SSIM rises with quality), starting from 50 and moving by 12, then halving.
 */
async function ladder(encode: (quality: number) => Promise<Point>, quick: boolean): Promise<Point[]> {
  const points = new Map<number, Point>()
  const at = async (quality: number) => {
    const q = Math.max(1, Math.min(100, Math.round(quality)))
    if (!points.has(q)) points.set(q, await encode(q))
    return points.get(q)!
  }
  const finest = quick ? 8 : 4
  for (const target of TARGETS) {
    let lo: Point | undefined
    let hi: Point | undefined
    let q = 50
    for (let guard = 0; guard < 12; guard++) {
      const point = await at(q)
      if (point.ssim >= target) hi = !hi || point.quality < hi.quality ? point : hi
      else lo = !lo || point.quality > lo.quality ? point : lo
      if (lo && hi && hi.quality - lo.quality <= finest) break
      if (!hi) q = point.quality >= 100 ? 100 : point.quality + 12
      else if (!lo) q = point.quality <= 1 ? 1 : point.quality - 12
      else q = (lo.quality + hi.quality) / 2
      if (points.has(Math.round(q)) && lo && hi) break
      if ((q >= 100 && hi === undefined && points.has(100)) || (q <= 1 && lo === undefined && points.has(1)))
        break
    }
  }
  return [...points.values()].sort((a, b) => a.quality - b.quality)
}

/** Bytes and CPU at a target, interpolated (log bytes, linear CPU) between the points around it. */
function atTarget(
  points: readonly Point[],
  target: number,
): { bytes: number; cpuMs: number; quality: number } | undefined {
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!
    const b = points[i]!
    if (a.ssim < target && b.ssim >= target) {
      const t = (target - a.ssim) / (b.ssim - a.ssim)
      return {
        bytes: Math.exp(Math.log(a.bytes) + t * (Math.log(b.bytes) - Math.log(a.bytes))),
        cpuMs: a.cpuMs + t * (b.cpuMs - a.cpuMs),
        quality: a.quality + t * (b.quality - a.quality),
      }
    }
  }
  return undefined
}

interface Row {
  readonly photo: string
  readonly megapixels: number
  readonly width: number
  readonly height: number
  readonly effort: number
  readonly tune: string
  readonly points: readonly Point[]
  readonly targets: Record<string, ReturnType<typeof atTarget>>
}

if (!existsSync(CORPUS)) {
  console.log(`[skipped] the shared corpus is not at ${CORPUS}`)
  process.exit(0)
}
sharp.concurrency(1)
const rows: Row[] = []
for (const name of list(args.photos!)) {
  for (const megapixels of SIZES) {
    const raw = await pixelsAt(join(CORPUS, PHOTOS[name]!), megapixels)
    const reference = await prepareReference(sharp(raw.data, { raw: raw.info }))
    for (const tune of TUNES) {
      for (const effort of EFFORTS) {
        const started = performance.now()
        const points = await ladder((q) => encodeAt(raw, reference, q, effort, tune), args.quick!)
        const targets = Object.fromEntries(TARGETS.map((t) => [String(t), atTarget(points, t)]))
        rows.push({
          photo: name,
          megapixels,
          width: raw.info.width,
          height: raw.info.height,
          effort,
          tune,
          points,
          targets,
        })
        const summary = TARGETS.map((t) => {
          const hit = targets[String(t)]
          return hit
            ? `${t}: q${hit.quality.toFixed(0)} ${Math.round(hit.bytes / 1024)} KiB ${Math.round(hit.cpuMs)} ms`
            : `${t}: -`
        }).join(', ')
        console.log(
          `${name} ${megapixels} MP effort ${effort} tune ${tune}: ${summary} (${points.length} encodes, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
        )
      }
    }
  }
}

const results = join(import.meta.dir, 'results')
mkdirSync(results, { recursive: true })
writeFileSync(
  join(results, 'avif-effort.json'),
  JSON.stringify({ date: new Date().toISOString(), rows }, null, 2) + '\n',
)

// Against effort 4 with the default tune, at the same photo, size and target.
console.log('\nAt equal SSIM, against effort 4 (bytes ratio, CPU ratio, CPU ms), median of the photos:')
for (const target of TARGETS) {
  console.log(`\nSSIM ${target}`)
  console.log(
    ['MP', ...TUNES.flatMap((tune) => EFFORTS.map((e) => `e${e}${tune === 'auto' ? '' : ' ' + tune}`))].join(
      ' | ',
    ),
  )
  for (const megapixels of SIZES) {
    const cells = TUNES.flatMap((tune) =>
      EFFORTS.map((effort) => {
        const pairs = list(args.photos!).flatMap((photo) => {
          const base = rows.find(
            (r) => r.photo === photo && r.megapixels === megapixels && r.effort === 4 && r.tune === 'auto',
          )?.targets[String(target)]
          const mine = rows.find(
            (r) => r.photo === photo && r.megapixels === megapixels && r.effort === effort && r.tune === tune,
          )?.targets[String(target)]
          return base && mine
            ? [{ bytes: mine.bytes / base.bytes, cpu: mine.cpuMs / base.cpuMs, ms: mine.cpuMs }]
            : []
        })
        if (pairs.length === 0) return '-'
        return `x${median(pairs.map((p) => p.bytes)).toFixed(2)} x${median(pairs.map((p) => p.cpu)).toFixed(2)} ${Math.round(median(pairs.map((p) => p.ms)))} ms`
      }),
    )
    console.log([String(megapixels), ...cells].join(' | '))
  }
}

/*
 * Which costly encoder settings earn their time. For each format, every variant encodes the
 * same pixels (corpus images decoded once, at most 1600 px wide) along a quality ladder; the
 * bytes each needs to reach a similarity target (luma SSIM, the service's metric: 0.95 and 0.98,
 * auto-medium and auto-high) are interpolated along its ladder and compared with the first
 * variant's, the plain encode. Encoder time is CPU time with one libvips thread.
 *
 * A setting is kept as a default only when it saves at least 10% at equal similarity; the
 * figures in this study's README come from this script.
 *
 * Usage: bun bench/encoder-settings/encoder-settings.ts [--formats jpeg,webp,avif,png] [--quick]
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cpuUsage } from 'node:process'
import { parseArgs } from 'node:util'
import type { Sharp } from 'sharp'
import { jpegOptions } from '../../src/image/steps/index.ts'
import { sharp } from '../../src/image/sharp.ts'
import { prepareReference, scoreCandidate, type PreparedReference } from '../../src/image/search/index.ts'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { uprightPixels } from '../common/pixels.ts'

const TARGETS = [0.95, 0.98] as const
const WIDTH = 1600

const PHOTOS = [
  'photo-pier-4mp.jpg',
  'photo-forest-path-4mp.jpg',
  'photo-circular-saw-6mp.jpg',
  'photo-lake-dusk-4mp-progressive.jpg',
  'photo-dandelions-16mp-progressive.jpg',
  'png-photo-butterfly-6mp.png',
]
const GRAPHICS = [
  'png-screenshot-palette-marble.png',
  'png-screenshot-rgba-marble.png',
  'png-graphic-alpha-arc-wallpaper.png',
  'png-graphic-rgb-sway-wallpaper.png',
  'png-gray-alpha-stripes.png',
]

type Encode = (image: Sharp, quality: number) => Sharp
interface FormatPlan {
  readonly images: readonly string[]
  readonly ladder: readonly number[]
  /** The first is the plain encode every other is compared with. */
  readonly variants: Readonly<Record<string, Encode>>
}

/** The service's own JPEG settings at an effort, so the rows are what the API encodes. */
const jpegAt = (quality: number, effort: number, progressive: boolean) =>
  jpegOptions({ quality, effort, progressive, chromaSubsampling: '4:2:0' })

const LADDER = [20, 30, 40, 50, 60, 70, 78, 85, 90, 95, 98]

const PLANS: Readonly<Record<string, FormatPlan>> = {
  jpeg: {
    images: PHOTOS,
    ladder: LADDER,
    variants: {
      'libjpeg-turbo baseline (progressive=false)': (i, q) => i.jpeg(jpegAt(q, 0, false)),
      'progressive (the default)': (i, q) => i.jpeg(jpegAt(q, 0, true)),
      'trellis (effort=1, progressive=false)': (i, q) => i.jpeg(jpegAt(q, 1, false)),
      'trellis, progressive, scans (effort=1)': (i, q) => i.jpeg(jpegAt(q, 1, true)),
      'table 3, trellis, progressive, scans (the previous default)': (i, q) =>
        i.jpeg({ ...jpegAt(q, 1, true), quantisationTable: 3 }),
      'table 2 (MS-SSIM tuned)': (i, q) => i.jpeg({ quality: q, quantisationTable: 2 }),
    },
  },
  webp: {
    images: PHOTOS,
    ladder: LADDER,
    variants: {
      'effort 4 (the default)': (i, q) => i.webp({ quality: q, effort: 4 }),
      'effort 4, smartSubsample': (i, q) => i.webp({ quality: q, effort: 4, smartSubsample: true }),
      'effort 2': (i, q) => i.webp({ quality: q, effort: 2 }),
      'effort 6': (i, q) => i.webp({ quality: q, effort: 6 }),
    },
  },
  avif: {
    images: PHOTOS.slice(0, 4),
    ladder: [25, 35, 45, 55, 65, 75, 85, 92],
    variants: {
      'effort 4 (the default)': (i, q) => i.avif({ quality: q, effort: 4 }),
      'effort 2': (i, q) => i.avif({ quality: q, effort: 2 }),
      'effort 6': (i, q) => i.avif({ quality: q, effort: 6 }),
      'effort 4, 4:2:0': (i, q) => i.avif({ quality: q, effort: 4, chromaSubsampling: '4:2:0' }),
    },
  },
  png: {
    images: GRAPHICS,
    ladder: [10, 30, 50, 65, 80, 90, 100],
    variants: {
      'palette effort 7 (the default)': (i, q) =>
        i.png({ palette: true, quality: q, effort: 7, compressionLevel: 9 }),
      'palette effort 1': (i, q) => i.png({ palette: true, quality: q, effort: 1, compressionLevel: 9 }),
      'palette effort 4': (i, q) => i.png({ palette: true, quality: q, effort: 4, compressionLevel: 9 }),
      'palette effort 10': (i, q) => i.png({ palette: true, quality: q, effort: 10, compressionLevel: 9 }),
    },
  },
}

interface Point {
  readonly quality: number
  readonly bytes: number
  readonly ssim: number
}

/** Bytes at `target` along a ladder, log(bytes) linear in log(1 - SSIM); NaN outside it. */
function bytesAt(points: readonly Point[], target: number): number {
  const loss = (s: number) => Math.log(Math.max(1e-6, 1 - s))
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i]!, points[i + 1]!]
    if (a.ssim <= target && b.ssim >= target && b.ssim > a.ssim) {
      const x = (loss(target) - loss(a.ssim)) / (loss(b.ssim) - loss(a.ssim))
      return Math.exp(Math.log(a.bytes) + x * (Math.log(b.bytes) - Math.log(a.bytes)))
    }
  }
  return NaN
}

const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length)

async function decoded(name: string): Promise<() => Sharp> {
  const { data, info } = await uprightPixels(readFileSync(join(CORPUS, name)), WIDTH)
  return () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
}

async function ladderOf(
  pixels: () => Sharp,
  reference: PreparedReference,
  encode: Encode,
  ladder: readonly number[],
) {
  const points: Point[] = []
  let cpuMs = 0
  for (const quality of ladder) {
    const before = cpuUsage()
    const bytes = await encode(pixels(), quality).toBuffer()
    const spent = cpuUsage(before)
    cpuMs += (spent.user + spent.system) / 1000
    points.push({ quality, bytes: bytes.length, ssim: (await scoreCandidate(reference, bytes)).score })
  }
  return { points, cpuMs: cpuMs / ladder.length }
}

async function runFormat(format: string, plan: FormatPlan, quick: boolean): Promise<string[]> {
  const names = Object.keys(plan.variants)
  const images = quick ? plan.images.slice(0, 2) : plan.images
  const cpu = new Map(names.map((n) => [n, [] as number[]]))
  const ratios = new Map(names.flatMap((n) => TARGETS.map((t) => [`${n}@${t}`, [] as number[]])))
  for (const image of images) {
    const pixels = await decoded(image)
    const reference = await prepareReference(pixels())
    const baseline = new Map<number, number>()
    for (const name of names) {
      const { points, cpuMs } = await ladderOf(pixels, reference, plan.variants[name]!, plan.ladder)
      cpu.get(name)!.push(cpuMs)
      for (const target of TARGETS) {
        const bytes = bytesAt(points, target)
        if (name === names[0]) baseline.set(target, bytes)
        const ratio = bytes / baseline.get(target)!
        if (Number.isFinite(ratio)) ratios.get(`${name}@${target}`)!.push(ratio)
      }
    }
  }
  const baseCpu = geomean(cpu.get(names[0]!)!)
  return names.map((name) => {
    const time = geomean(cpu.get(name)!) / baseCpu
    const cells = TARGETS.map((t) => {
      const r = ratios.get(`${name}@${t}`)!
      return r.length ? `x${geomean(r).toFixed(3)} (${r.length})` : 'n/a'
    })
    return `| ${format} | ${name} | x${time.toFixed(2)} | ${cells.join(' | ')} |`
  })
}

async function main() {
  const { values } = parseArgs({
    options: {
      formats: { type: 'string', default: 'jpeg,webp,avif,png' },
      quick: { type: 'boolean', default: false },
    },
  })
  if (!existsSync(CORPUS)) throw new Error(`the corpus is not at ${CORPUS}`)
  sharp.concurrency(1)
  console.log(
    'Bytes at equal luma SSIM relative to the first row of each format (geometric mean, images in range)',
  )
  console.log(`| Format | Settings | Encoder CPU | Bytes at SSIM ${TARGETS.join(' | Bytes at SSIM ')} |`)
  console.log(`|---|---|---|${TARGETS.map(() => '---').join('|')}|`)
  for (const format of values.formats.split(',')) {
    const plan = PLANS[format]
    if (!plan) throw new Error(`no plan for ${format}; one of ${Object.keys(PLANS).join(', ')}`)
    for (const line of await runFormat(format, plan, values.quick)) console.log(line)
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

/*
 * What quality.ts concludes: the median size ratios per class and format, and the four
 * goals, each PASS or FAIL with the numbers behind it.
 */
import { AUTO_LEVELS } from '../../src/image/search/index.ts'
import type { AutoQuality } from '../../src/options/schema.ts'
import { median } from '../common/figures.ts'
import { AUTO_COST_GOAL } from '../common/goals.ts'
import type { Comparison, Output, Ratio } from './compare.ts'
import type { Codec, ImageClass } from '../common/corpus.ts'

export interface SummaryRow {
  readonly imageClass: ImageClass
  readonly format: Codec
  readonly setting: string
  readonly images: number
  /** Median of imgapi bytes / the best peer's bytes at equal-or-better SSIM. */
  readonly best: number
  /** Ratios that are bounds (a ladder's end) rather than interpolated. */
  readonly bounded: number
  readonly perPeer: Readonly<Record<string, number>>
}

export interface Goal {
  readonly name: string
  readonly pass: boolean
  readonly lines: readonly string[]
}

/** Goal 2: the output lands in [LANDING × target, target]. */
export const LANDING = 0.9
/** Goal 4: quality=auto costs at most this many fixed-quality requests (the smart-cost study's goal). */
const AUTO_COST_LIMIT = AUTO_COST_GOAL
const GOAL_SETTINGS = ['default', 'auto']

const groupBy = <T>(items: readonly T[], by: (item: T) => string) => {
  const groups = new Map<string, T[]>()
  for (const item of items) groups.set(by(item), [...(groups.get(by(item)) ?? []), item])
  return groups
}

export function summarise(comparisons: readonly Comparison[]): SummaryRow[] {
  const groups = groupBy(comparisons, (c) => `${c.output.imageClass}|${c.output.format}|${c.output.setting}`)
  const rows: SummaryRow[] = []
  for (const group of groups.values()) {
    const { imageClass, format, setting } = group[0]!.output
    const bests = group.flatMap((c) => (c.best ? [c.best] : []))
    const peers = groupBy(
      group.flatMap((c) => c.perPeer),
      (r: Ratio) => r.peer,
    )
    const perPeer = Object.fromEntries([...peers].map(([peer, r]) => [peer, median(r.map((x) => x.ratio))]))
    const bounded = bests.filter((r) => r.bound !== 'inside').length
    rows.push({
      imageClass,
      format,
      setting,
      images: group.length,
      best: median(bests.map((r) => r.ratio)),
      bounded,
      perPeer,
    })
  }
  return rows
}

export function sizeGoal(rows: readonly SummaryRow[]): Goal {
  const relevant = rows.filter((row) => GOAL_SETTINGS.includes(row.setting))
  const lines = relevant.map((row) => {
    const verdict = row.best <= 1 ? 'pass' : 'FAIL'
    return `${verdict} ${row.imageClass} ${row.format} ${row.setting}: median ×${row.best.toFixed(3)} of the best peer (${row.images} images, ${row.bounded} at a ladder's end)`
  })
  return {
    name: '1. default and auto no larger than the best peer at equal-or-better SSIM (median per class and format)',
    pass: relevant.every((row) => row.best <= 1),
    lines,
  }
}

/** The smallest size a TARGET_UNREACHABLE answer reports, from its message. */
const smallestReached = (error: string) =>
  Number(/smallest reached was (\d+) bytes/.exec(error)?.[1] ?? Number.NaN)

export function targetGoal(outputs: readonly Output[]): Goal {
  const runs = outputs.filter((o) => o.producer === 'imgapi' && o.setting === 'maxBytes')
  // A target under what the format's floor (minQuality) allows is refused by design, with the
  // smallest size reached: that is right when that size is over the target.
  const refused = runs.filter(
    (o) => o.error?.includes('TARGET_UNREACHABLE') && smallestReached(o.error) > o.targetBytes!,
  )
  const reachable = runs.filter((o) => !refused.includes(o))
  const misses = reachable.filter(
    (o) => o.error || o.bytes > o.targetBytes! || o.bytes < LANDING * o.targetBytes!,
  )
  const landed = reachable.filter((o) => !o.error).map((o) => o.bytes / o.targetBytes!)
  const encodes = runs.map((o) => o.encodes ?? Number.NaN).filter(Number.isFinite)
  return {
    name: `2. maxBytes lands within ${((1 - LANDING) * 100).toFixed(0)}% under the target (every photo, JPEG, WebP, AVIF)`,
    pass: reachable.length > 0 && misses.length === 0,
    lines: [
      `${reachable.length - misses.length} of ${reachable.length} landed; output / target from ${Math.min(...landed).toFixed(3)} to ${Math.max(...landed).toFixed(3)}, median ${median(landed).toFixed(3)}; encodes median ${median(encodes)}, max ${Math.max(...encodes)}`,
      `${refused.length} more refused with TARGET_UNREACHABLE, their target under what the format's floor (minQuality) allows`,
      ...misses.map(
        (o) =>
          `FAIL ${o.image} ${o.format}: ${o.error ?? `${o.bytes} bytes for a target of ${o.targetBytes} (${((o.bytes / o.targetBytes!) * 100).toFixed(1)}%), quality ${o.quality}, ${o.encodes} encodes`}`,
      ),
    ],
  }
}

export function levelGoal(outputs: readonly Output[]): Goal {
  const autos = outputs.filter((o) => o.producer === 'imgapi' && o.setting in AUTO_LEVELS && !o.error)
  const below = autos.filter((o) => o.ssim === undefined || o.ssim < AUTO_LEVELS[o.setting as AutoQuality])
  return {
    name: '3. quality=auto* never below its level by scikit-image',
    pass: autos.length > 0 && below.length === 0,
    lines: [
      `${autos.length - below.length} of ${autos.length} at or above their level`,
      ...below.map(
        (o) =>
          `FAIL ${o.image} ${o.format} ${o.setting} (target ${AUTO_LEVELS[o.setting as AutoQuality]}): skimage ${o.ssim?.toFixed(5)}, imgapi ${o.imgapiSsim?.toFixed(5)}, quality ${o.quality}`,
      ),
    ],
  }
}

/** Per format, the median over images of auto's wall time over the fixed-quality request's. */
export function costRatios(outputs: readonly Output[]) {
  const imgapi = outputs.filter((o) => o.producer === 'imgapi' && !o.error)
  const fixed = new Map(
    imgapi.filter((o) => o.setting === 'default').map((o) => [`${o.image}|${o.format}`, o]),
  )
  const pairs = imgapi.flatMap((o) => {
    const base = o.setting === 'auto' ? fixed.get(`${o.image}|${o.format}`) : undefined
    return base
      ? [{ format: o.format, wall: o.wallMs / base.wallMs, cpu: o.cpuMs / base.cpuMs, o, base }]
      : []
  })
  return [...groupBy(pairs, (p) => p.format)].map(([format, group]) => ({
    format,
    images: group.length,
    wall: median(group.map((p) => p.wall)),
    cpu: median(group.map((p) => p.cpu)),
    fixedMs: median(group.map((p) => p.base.wallMs)),
    autoMs: median(group.map((p) => p.o.wallMs)),
    encodes: median(group.map((p) => p.o.encodes ?? Number.NaN)),
  }))
}

export function costGoal(ratios: ReturnType<typeof costRatios>): Goal {
  return {
    name: `4. quality=auto costs at most ${AUTO_COST_LIMIT}x one fixed-quality encode (median wall time per format)`,
    pass: ratios.length > 0 && ratios.every((r) => r.wall <= AUTO_COST_LIMIT),
    lines: ratios.map(
      (r) =>
        `${r.wall <= AUTO_COST_LIMIT ? 'pass' : 'FAIL'} ${r.format}: ×${r.wall.toFixed(2)} wall (×${r.cpu.toFixed(2)} CPU); median ${r.autoMs.toFixed(0)} ms against ${r.fixedMs.toFixed(0)} ms, ${r.encodes} encodes (${r.images} images)`,
    ),
  }
}

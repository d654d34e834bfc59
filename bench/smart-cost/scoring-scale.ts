/**
 * Whether quality=auto could score its candidates at a smaller scale than the documented one
 * (at most SIMILARITY_MAX_PIXELS) without changing what the levels mean. For every corpus photo
 * and graphic (the classes and formats of bench/quality/), each quality from 100 down is
 * compressed as POST /api/compress does it at width=1600, minus HTTP, and scored against the
 * transformed input at each scale. Printed per image: the quality the `auto` level chooses at
 * each scale (the lowest from which every higher quality passes, never under the level's
 * floor) and a score's cost; then how far the choice moves from the documented scale's.
 * A smaller scale is usable only if the choice moves by at most 1 on every image.
 * Alone: bun bench/smart-cost/scoring-scale.ts [--formats jpeg,webp] [--pixels 700000,500000]
 */
import { parseArgs } from 'node:util'
import { CORPUS, corpusFile } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { FORMATS_BY_CLASS, readManifest } from '../common/corpus.ts'
import { runImgapi } from '../common/in-process.ts'
import { uprightPixels } from '../common/pixels.ts'
import { corpusAbsent, warmUpOn } from './images.ts'
import { aimFor, MIN_QUALITY } from '../../src/image/search/auto-quality.ts'
import {
  prepareRawReference,
  scoreCandidate,
  SIMILARITY_MAX_PIXELS,
} from '../../src/image/search/similarity.ts'
import type { SearchFormat } from '../../src/formats/format-table.ts'

const WIDTH = 1600
const TARGET = aimFor('auto')

interface Row {
  readonly image: string
  readonly format: string
  /** The chosen quality at each scale, the documented one first. */
  readonly chosen: readonly number[]
  /** Milliseconds per score (decode, scale, luma, SSIM) at each scale. */
  readonly scoreMs: readonly number[]
}

async function referencesAt(input: Uint8Array, scales: readonly number[]) {
  const { data, info } = await uprightPixels(input, WIDTH)
  const raw = { data, width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 }
  return Promise.all(
    scales.map((pixels) => {
      const s = Math.min(1, Math.sqrt(pixels / (raw.width * raw.height)))
      const size = { width: Math.floor(raw.width * s), height: Math.floor(raw.height * s) }
      return prepareRawReference(raw, '#ffffff', size)
    }),
  )
}

async function measure(input: Uint8Array, format: string, scales: readonly number[]) {
  const references = await referencesAt(input, scales)
  const floor = MIN_QUALITY[format as SearchFormat].auto
  const chosen = scales.map(() => 101)
  const spent = scales.map(() => 0)
  let scored = 0
  for (let quality = 100; quality >= floor; quality--) {
    const { data } = await runImgapi(input, { format, width: String(WIDTH), quality: String(quality) })
    scored++
    for (let i = 0; i < scales.length; i++) {
      const started = performance.now()
      const { score } = await scoreCandidate(references[i]!, data)
      spent[i]! += performance.now() - started
      if (score >= TARGET && chosen[i] === quality + 1) chosen[i] = quality
    }
    if (chosen.every((q) => q > quality)) break
  }
  return { chosen, scoreMs: spent.map((ms) => ms / scored) }
}

function report(rows: readonly Row[], scales: readonly number[]): string {
  const head = scales.map((p) => `${(p / 1e6).toFixed(2)} MP`.padStart(9)).join('')
  const lines = rows.map(
    (r) =>
      `${`${r.image} ${r.format}`.padEnd(50)}${r.chosen.map((q) => String(q).padStart(9)).join('')}   ${r.scoreMs.map((ms) => ms.toFixed(1)).join(' / ')}`,
  )
  const summary = scales.slice(1).map((pixels, k) => {
    const moves = rows.map((r) => Math.abs(r.chosen[k + 1]! - r.chosen[0]!))
    const cost = median(rows.map((r) => r.scoreMs[k + 1]! / r.scoreMs[0]!))
    const usable = Math.max(...moves) <= 1 ? 'usable' : 'NOT usable (moves by more than 1)'
    return `${(pixels / 1e6).toFixed(2)} MP: quality moves by median ${median(moves)}, at most ${Math.max(...moves)}; ${moves.filter((m) => m > 1).length} of ${rows.length} by more than 1; a score costs ${cost.toFixed(2)} of the documented scale's; ${usable}`
  })
  return [
    `quality=auto's choice (level auto, width ${WIDTH}) when candidates are scored at a smaller scale:`,
    `${'image format'.padEnd(50)}${head}   ms per score`,
    ...lines,
    ...summary,
  ].join('\n')
}

export async function benchScoringScale(
  formats: readonly string[],
  scales: readonly number[],
  log: (line: string) => void = console.error,
): Promise<string> {
  const absent = corpusAbsent('scoring-scale')
  if (absent) return absent
  const images = readManifest(CORPUS).images
  await warmUpOn(images, formats)
  const rows: Row[] = []
  const all = [SIMILARITY_MAX_PIXELS, ...scales]
  for (const image of images) {
    const input = await corpusFile(image.file)
    for (const format of FORMATS_BY_CLASS[image.imageClass]) {
      if (!formats.includes(format)) continue
      rows.push({ image: image.file, format, ...(await measure(input, format, all)) })
    }
    log(`scoring-scale: ${image.file}`)
  }
  return report(rows, all)
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      formats: { type: 'string', default: 'jpeg,webp' },
      pixels: { type: 'string', default: '700000,500000' },
    },
  })
  const scales = values.pixels.split(',').filter(Boolean).map(Number)
  console.log(await benchScoringScale(values.formats.split(',').filter(Boolean), scales))
}

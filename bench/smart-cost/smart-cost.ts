/**
 * What format=auto and maxBytes cost against one plain encode of what they answer: every corpus
 * photo, uploaded as it is with width=1600, compressed in this process (compressImage, as POST
 * /api/compress runs it minus HTTP, one job at a time).
 * - format=auto against encoding its winner once, at the quality it chose;
 * - maxBytes (for JPEG, WebP and AVIF, a target of 80% of the format's default output) against
 *   one encode at the quality it landed on, at the default effort (the final one), and where
 *   it landed: within 10% under the target is the goal.
 * Alternating rounds; per image the median of its rounds, then the median over images.
 * Called by bench/run.ts; alone: bun bench/smart-cost/smart-cost.ts [--rounds 3] [--photos N] (the
 * first N photos of the manifest: each costs about a minute a round on 2 CPUs)
 */
import { parseArgs } from 'node:util'
import { CORPUS, corpusFile } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { readManifest } from '../common/corpus.ts'
import { runImgapi, type ImgapiRun } from '../common/in-process.ts'
import { corpusAbsent, failedLines, warmUpOn } from './images.ts'

const WIDTH = '1600'
/** The goals: each smart mode costs at most this many plain encodes of its answer. */
export const SMART_COST_GOAL = 3
/** Of the default output: a target the quality floors (minQuality) leave reachable on every photo. */
const TARGET_SHARE = 0.8
const BYTE_FORMATS = ['jpeg', 'webp', 'avif'] as const

interface Row {
  readonly mode: string
  readonly image: string
  readonly smart: readonly ImgapiRun[]
  readonly plain: readonly ImgapiRun[]
  /** maxBytes only: output bytes over the target. */
  readonly reached?: number
}

/** The smart request, then the plain one it is set against, alternating which goes first. */
async function measure(
  input: Uint8Array,
  smartQuery: Record<string, string>,
  plainQueryOf: (answer: ImgapiRun) => Record<string, string>,
  rounds: number,
) {
  const first = await runImgapi(input, smartQuery)
  const plainQuery = plainQueryOf(first)
  const smart: ImgapiRun[] = [first]
  const plain: ImgapiRun[] = [await runImgapi(input, plainQuery)]
  for (let round = 1; round < rounds; round++) {
    // Alternating which goes first spreads a busy neighbour over both alike.
    const order = round % 2 === 0 ? [smart, plain] : [plain, smart]
    for (const runs of order) runs.push(await runImgapi(input, runs === smart ? smartQuery : plainQuery))
  }
  return { smart, plain, first }
}

const wall = (runs: readonly ImgapiRun[]) => median(runs.map((r) => r.wallMs))

async function photoRows(file: string, rounds: number): Promise<Row[]> {
  const input = await corpusFile(file)
  const rows: Row[] = []
  const auto = await measure(
    input,
    { format: 'auto', width: WIDTH },
    (answer) => ({ format: answer.outputFormat, width: WIDTH, quality: String(answer.quality ?? '') }),
    rounds,
  )
  rows.push({ mode: 'format=auto', image: file, smart: auto.smart, plain: auto.plain })
  for (const format of BYTE_FORMATS) {
    const fixed = await runImgapi(input, { format, width: WIDTH })
    const target = Math.round(fixed.data.byteLength * TARGET_SHARE)
    const bytes = await measure(
      input,
      { format, width: WIDTH, maxBytes: String(target) },
      (answer) => ({ format, width: WIDTH, quality: String(answer.quality ?? '') }),
      rounds,
    )
    rows.push({
      mode: `maxBytes ${format}`,
      image: file,
      smart: bytes.smart,
      plain: bytes.plain,
      reached: bytes.first.data.byteLength / target,
    })
  }
  return rows
}

function formatTable(rows: readonly Row[], rounds: number): string {
  const modes = [...new Set(rows.map((r) => r.mode))]
  const lines = modes.map((mode) => {
    const of = rows.filter((r) => r.mode === mode)
    const ratio = median(of.map((r) => wall(r.smart) / wall(r.plain)))
    const reached = of.flatMap((r) => (r.reached === undefined ? [] : [r.reached]))
    const within = reached.filter((share) => share <= 1 && share >= 0.9).length
    return [
      mode.padEnd(14),
      String(of.length).padStart(6),
      median(of.map((r) => wall(r.plain)))
        .toFixed(0)
        .padStart(9),
      median(of.map((r) => wall(r.smart)))
        .toFixed(0)
        .padStart(9),
      ratio.toFixed(2).padStart(13),
      String(median(of.map((r) => median(r.smart.map((run) => run.encodes))))).padStart(8),
      (reached.length ? `${within}/${reached.length}` : '-').padStart(15),
      ratio <= SMART_COST_GOAL ? '  met' : '  MISS',
    ].join(' ')
  })
  return [
    `format=auto and maxBytes against one plain encode of their answer (width ${WIDTH}, in-process, medians of ${rounds} rounds per image, then over images; goal <= ${SMART_COST_GOAL}; maxBytes targets ${TARGET_SHARE * 100}% of the default output, within 10% under it is the goal):`,
    'mode            photos  plain ms  smart ms  smart/plain  encodes  within 10% under  goal',
    ...lines,
  ].join('\n')
}

export async function benchSmartCost(
  rounds: number,
  log: (line: string) => void = console.error,
  limit = Infinity,
): Promise<string> {
  const absent = corpusAbsent('smart-cost')
  if (absent) return absent
  const photos = readManifest(CORPUS)
    .images.filter((image) => image.imageClass === 'photo')
    .slice(0, limit)
  await warmUpOn(photos, ['jpeg', 'webp', 'avif', 'png'])
  const rows: Row[] = []
  const failures: string[] = []
  for (const photo of photos) {
    try {
      rows.push(...(await photoRows(photo.file, rounds)))
    } catch (error) {
      failures.push(`${photo.file}: ${error instanceof Error ? error.message : String(error)}`)
    }
    log(`smart-cost: ${photo.file}`)
  }
  return [formatTable(rows, rounds), ...failedLines(failures)].join('\n')
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, photos: { type: 'string' } },
  })
  console.log(await benchSmartCost(Number(values.rounds), console.error, Number(values.photos ?? Infinity)))
}

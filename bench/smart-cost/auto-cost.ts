/**
 * What quality=auto costs against one fixed-quality encode of the same format at the same size:
 * every corpus photo and graphic (the classes and formats of bench/quality/), uploaded as it
 * is with width=1600, compressed in this process (compressImage, as POST /api/compress runs it
 * minus HTTP, one job at a time), once at the format's default quality and once with
 * quality=auto, alternating, for a few rounds. Per image the median of its rounds; per format
 * the median over images of auto's time over the fixed request's, wall clock and CPU.
 * Called by bench/run.ts; alone: bun bench/smart-cost/auto-cost.ts [--rounds 3] [--formats jpeg,webp]
 */
import { parseArgs } from 'node:util'
import { CORPUS, corpusFile } from '../../tests/helpers/paths.ts'
import { median, medianOf } from '../common/figures.ts'
import { AUTO_COST_GOAL } from '../common/goals.ts'
import { FORMATS_BY_CLASS, readManifest } from '../common/corpus.ts'
import { runImgapi, type ImgapiRun } from '../common/in-process.ts'
import { corpusAbsent, failedLines, warmUpOn } from './images.ts'

const WIDTH = '1600'

interface Pair {
  readonly image: string
  readonly format: string
  readonly fixed: readonly ImgapiRun[]
  readonly auto: readonly ImgapiRun[]
}

async function measurePair(input: Uint8Array, format: string, rounds: number) {
  const fixed: ImgapiRun[] = []
  const auto: ImgapiRun[] = []
  for (let round = 0; round < rounds; round++) {
    // Alternating which goes first spreads a busy neighbour over both alike.
    const order = round % 2 === 0 ? [fixed, auto] : [auto, fixed]
    for (const runs of order) {
      const query: Record<string, string> = {
        format,
        width: WIDTH,
        ...(runs === auto ? { quality: 'auto' } : {}),
      }
      runs.push(await runImgapi(input, query))
    }
  }
  return { fixed, auto }
}

const medianRun = (runs: readonly ImgapiRun[], key: 'wallMs' | 'cpuMs' | 'encodes') =>
  medianOf(runs, (run) => run[key])

function summarise(pairs: readonly Pair[]) {
  const formats = [...new Set(pairs.map((p) => p.format))]
  return formats.map((format) => {
    const of = pairs.filter((p) => p.format === format)
    const ratio = (key: 'wallMs' | 'cpuMs') =>
      median(of.map((p) => medianRun(p.auto, key) / medianRun(p.fixed, key)))
    return {
      format,
      images: of.length,
      fixedMs: median(of.map((p) => medianRun(p.fixed, 'wallMs'))),
      autoMs: median(of.map((p) => medianRun(p.auto, 'wallMs'))),
      wall: ratio('wallMs'),
      cpu: ratio('cpuMs'),
      encodes: median(of.map((p) => medianRun(p.auto, 'encodes'))),
    }
  })
}

function formatTable(rows: ReturnType<typeof summarise>, rounds: number): string {
  const header = 'format  images  fixed ms  auto ms  auto/fixed wall  auto/fixed CPU  encodes  goal'
  const lines = rows.map((r) =>
    [
      r.format.padEnd(6),
      String(r.images).padStart(6),
      r.fixedMs.toFixed(0).padStart(9),
      r.autoMs.toFixed(0).padStart(8),
      r.wall.toFixed(2).padStart(16),
      r.cpu.toFixed(2).padStart(15),
      String(r.encodes).padStart(8),
      r.wall <= AUTO_COST_GOAL ? '  met' : '  MISS',
    ].join(' '),
  )
  return [
    `quality=auto against one fixed-quality encode (width ${WIDTH}, in-process, medians of ${rounds} rounds per image, then over images; goal <= ${AUTO_COST_GOAL}):`,
    header,
    ...lines,
  ].join('\n')
}

export async function benchAutoCost(
  rounds: number,
  log: (line: string) => void = console.error,
  /** Only these output formats (all when empty). */
  only: readonly string[] = [],
): Promise<string> {
  const absent = corpusAbsent('auto-cost')
  if (absent) return absent
  const images = readManifest(CORPUS).images
  await warmUpOn(images, ['jpeg', 'webp', 'avif', 'png'])
  const pairs: Pair[] = []
  const failures: string[] = []
  for (const image of images) {
    const input = await corpusFile(image.file)
    for (const format of FORMATS_BY_CLASS[image.imageClass]) {
      if (only.length > 0 && !only.includes(format)) continue
      try {
        pairs.push({ image: image.file, format, ...(await measurePair(input, format, rounds)) })
      } catch (error) {
        failures.push(`${image.file} ${format}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    log(`auto-cost: ${image.file}`)
  }
  return [formatTable(summarise(pairs), rounds), ...failedLines(failures)].join('\n')
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, formats: { type: 'string', default: '' } },
  })
  const only = values.formats.split(',').filter(Boolean)
  console.log(await benchAutoCost(Number(values.rounds), console.error, only))
}

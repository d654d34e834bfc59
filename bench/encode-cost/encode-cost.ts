/*
 * What each encode costs on this machine: seconds per megapixel by format and effort, and peak
 * memory per megapixel by pipeline. libheif (AVIF) and libimagequant (palette PNG and GIF) do
 * not stop when sharp's timeout() fires, so their limits have to be set up front, and these
 * figures are what the defaults of those limits, and the memory formula, are derived from.
 *
 * Usage: bun bench/encode-cost/encode-cost.ts [--quick]
 *   full (~15 min): 1, 4, 8, 16 MP and the 20 MP photo itself, medians of up to 3 runs,
 *   writes results/encode-cost.json. --quick (~2 min): 1 and 4 MP, one run each,
 *   writes results/encode-cost-quick.json (not committed). The budget counts CPU
 *   seconds, so other work on the machine stretches the run but does not change what it measures.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { engineVersions, sharp } from '../../src/image/sharp.ts'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { startNoiseWitness } from '../common/proc.ts'
import { FULL_BUDGET, FULL_MEMORY_BUDGET, QUICK_BUDGET, type Budget } from './budget.ts'
import { NOISE_ENCODES_1MP, NOISE_ENCODES_4MP, PHOTO_ENCODES, timeContent } from './checks.ts'
import { TIMED_ENCODES, timedAtFullSize, type EncodeSpec } from './encodes.ts'
import { prepareMemoryCases, type CorpusFiles } from './inputs.ts'
import { measureMemory } from './memory.ts'
import { formatReport, type Results } from './print.ts'
import { memoryFits, summariseSeries } from './report.ts'
import { timeThreads } from './threads.ts'
import { noiseAt, rawAt, timeEncode, timeSeries, type RawImage, type SeriesTiming } from './timing.ts'

const RESULTS = resolve(import.meta.dir, 'results')
const FILES: CorpusFiles = {
  // The largest photo: every size is a downscale of it, so only the size changes.
  mainPhoto: join(CORPUS, 'photo-bird-nuthatch-20mp.jpg'),
  png16: join(CORPUS, 'png-photo-16bit-rgb.png'),
  smallPhoto: join(CORPUS, 'photo-exif-orientation-6.jpg'),
  animatedGif: join(CORPUS, 'gif-animated-10frames.gif'),
}
// Other content at the same size: fine detail (foliage, seed heads, water) costs encoders more.
const OTHER_PHOTOS = [
  'photo-dandelions-16mp-progressive.jpg',
  'photo-forest-path-4mp.jpg',
  'photo-pier-4mp.jpg',
]

const log = (line: string) => console.error(`[${(performance.now() / 1000).toFixed(0)} s] ${line}`)

/** Every codec once on a tiny image, so that no library's first-use set-up is timed. */
async function warmUp(): Promise<void> {
  const tiny = await rawAt(FILES.mainPhoto, 0.01)
  for (const spec of TIMED_ENCODES)
    if (spec.effort === undefined || spec.effort <= 1) await timeEncode(tiny, spec)
}

async function timeAll(sizes: readonly (number | undefined)[], budget: Budget): Promise<SeriesTiming[]> {
  const raws = []
  for (const megapixels of sizes) raws.push(await rawAt(FILES.mainPhoto, megapixels))
  const series: SeriesTiming[] = []
  for (const spec of TIMED_ENCODES) {
    const mine = raws.filter((raw) => !raw.fullSize || timedAtFullSize(spec))
    series.push(await timeSeries(spec, mine, budget, log))
  }
  return series
}

/** Expected CPU seconds from the grid: along the encode's fit, or per megapixel if it has one size. */
function predictorFrom(grid: readonly SeriesTiming[]) {
  return (spec: EncodeSpec, megapixels: number): number => {
    const series = grid.find((s) => s.encode.codec === spec.codec && s.encode.effort === spec.effort)
    if (!series) return 0
    const { cpuFit } = summariseSeries(series)
    if (cpuFit) return cpuFit.fixed + cpuFit.perMegapixel * megapixels
    return Math.max(0, ...series.sizes.map((size) => size.cpuSecondsPerMegapixel)) * megapixels
  }
}

async function measureMemoryCases(
  sizes: readonly (number | undefined)[],
  series: SeriesTiming[],
  budget: Budget,
) {
  const dir = mkdtempSync(join(tmpdir(), 'encode-cost-'))
  try {
    const cases = await prepareMemoryCases(dir, FILES, sizes, predictorFrom(series))
    return await measureMemory(cases, budget, log)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What to time beyond the grid: other photos and noise (a smoke test of it when quick). */
async function contentPlan(quick: boolean): Promise<[RawImage, readonly EncodeSpec[]][]> {
  if (quick) return [[await noiseAt(1), [{ codec: 'avif', effort: 3 }]]]
  const plan: [RawImage, readonly EncodeSpec[]][] = []
  for (const name of OTHER_PHOTOS) plan.push([await rawAt(join(CORPUS, name), 1), PHOTO_ENCODES])
  plan.push([await noiseAt(1), NOISE_ENCODES_1MP], [await noiseAt(4), NOISE_ENCODES_4MP])
  return plan
}

/** The checks on the grid's assumptions: other content, and the encoders' threads. */
async function runChecks(quick: boolean, grid: readonly SeriesTiming[], budget: Budget) {
  const content = await timeContent(await contentPlan(quick), grid, budget, log)
  const rounds = quick ? 1 : 3
  const threads = [
    ...(await timeThreads(await rawAt(FILES.mainPhoto, quick ? 1 : 4), { codec: 'avif', effort: 2 }, rounds)),
    ...(await timeThreads(await rawAt(FILES.mainPhoto, 1), { codec: 'avif', effort: 4 }, rounds)),
    ...(await timeThreads(await rawAt(FILES.mainPhoto, 1), { codec: 'png', effort: 10 }, rounds)),
  ]
  return { content, threads }
}

function machineFacts(otherCpus: number): Results['machine'] {
  const libvipsThreads = sharp.concurrency()
  return { cpus: availableParallelism(), bun: Bun.version, ...engineVersions(), libvipsThreads, otherCpus }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { quick: { type: 'boolean', default: false } },
  })
  const quick = values.quick
  const budget = quick ? QUICK_BUDGET : FULL_BUDGET
  const memoryBudget = quick ? QUICK_BUDGET : FULL_MEMORY_BUDGET
  const sizes = quick ? [1, 4] : [1, 4, 8, 16, undefined]
  const witness = startNoiseWitness()
  await warmUp()
  const timing = await timeAll(sizes, budget)
  const { content, threads } = await runChecks(quick, timing, budget)
  const memory = await measureMemoryCases(sizes, timing, memoryBudget)
  const results: Results = {
    mode: quick ? 'quick' : 'full',
    machine: machineFacts(witness.otherCpus()),
    budgets: { timing: budget, memory: memoryBudget },
    mainPhoto: FILES.mainPhoto.split('/').at(-1),
    timing: timing.map((series) => ({ ...series, summary: summariseSeries(series) })),
    content,
    threads,
    memory,
    memoryFits: memoryFits(memory),
  }
  mkdirSync(RESULTS, { recursive: true })
  const file = join(RESULTS, quick ? 'encode-cost-quick.json' : 'encode-cost.json')
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
  console.log(formatReport(results))
}

main()

/*
 * Bytes at equal similarity: imgapi (in-process, no HTTP) against the Debian command-line tools
 * a user would reach for (jpegoptim and vips for JPEG, cwebp, avifenc, pngquant and optipng),
 * every output scored by one independent tool, scikit-image's SSIM (ssim.py), on
 * imgapi's own definition: BT.601 luma at most 1 MP, transparency on white.
 *
 * Every tool starts from the same prepared input per corpus image (prepare.ts).
 * imgapi runs its default quality, quality=auto, auto-high and auto-medium, and maxBytes on
 * photos; each peer runs a ladder of settings, and imgapi's bytes are set against the bytes
 * each peer needs for the same score (compare.ts). The four goals are checked
 * in goals.ts.
 *
 * Usage: bun bench/quality/quality.ts [--quick] [--jobs N] [--keep]
 *   full (~20 min on 2 cores): every usable corpus image, writes results/quality.json.
 *   --quick (~3 min): five small images, three rungs per ladder, writes quality-quick.json.
 *   --jobs: peer tools run at once (default: one per CPU); imgapi always runs alone, as it is timed.
 *   --keep: leave the prepared inputs and every output in the work folder, whose path is printed.
 * Exits 2 when a tool is missing (printing the apt-get command), 1 when an encode or score failed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { startNoiseWitness } from '../common/proc.ts'
import type { Output } from './compare.ts'
import { readManifest } from '../common/corpus.ts'
import { warmUpImgapi } from '../common/in-process.ts'
import { prepareImage, type PreparedImage } from './prepare.ts'
import { analyse, reportText, writeResults } from './report.ts'
import { runImage } from './run.ts'
import { scoreAll } from './score.ts'
import { missingToolsCommand } from './tools.ts'

const RESULTS = resolve(import.meta.dir, 'results')
/** Small images of every class, so that a smoke run takes a few minutes. */
const QUICK_IMAGES = [
  'photo-exif-orientation-6.jpg',
  'webp-lossy-photo-tree.webp',
  'png-photo-16bit-rgb.png',
  'png-screenshot-rgba-marble.png',
  'webp-lossy-alpha.webp',
]

interface Settings {
  readonly quick: boolean
  readonly keep: boolean
  readonly jobs: number
}

const log = (line: string) => console.error(`[${(performance.now() / 1000).toFixed(0)} s] ${line}`)

function parseSettings(): Settings {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      jobs: { type: 'string', default: String(availableParallelism()) },
    },
  })
  const jobs = Number(values.jobs)
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`--jobs expects a positive integer, received "${values.jobs}"`)
  return { quick: values.quick, keep: values.keep, jobs }
}

/** Every image's encodes, then one scoring pass over all of them. */
async function encodeAndScore(images: readonly PreparedImage[], dir: string, settings: Settings) {
  const outputs: Output[] = []
  const pairs: { id: string; reference: string; candidate: string }[] = []
  const failures: string[] = []
  for (const image of images) {
    const started = performance.now()
    const run = await runImage(image, dir, settings.quick, settings.jobs)
    outputs.push(...run.outputs)
    for (const [id, candidate] of run.files) pairs.push({ id, reference: image.png, candidate })
    failures.push(...run.failures)
    const seconds = ((performance.now() - started) / 1000).toFixed(0)
    log(
      `${image.file} (${image.imageClass}, ${image.width}×${image.height}): ${run.outputs.length} outputs, ${seconds} s`,
    )
  }
  log(`scoring ${pairs.length} outputs with scikit-image`)
  const scores = await scoreAll(pairs, dir)
  for (const output of outputs) output.ssim = scores.ssim.get(output.id)
  failures.push(...scores.errors)
  return { outputs, failures, scorer: scores.versions }
}

async function main(): Promise<number> {
  const settings = parseSettings()
  const missing = missingToolsCommand()
  if (missing) {
    console.error(
      `bench:quality compares with and scores by Debian tools that are missing here:\n  ${missing}`,
    )
    return 2
  }
  const witness = startNoiseWitness()
  const manifest = readManifest(CORPUS)
  const chosen = manifest.images.filter((image) => !settings.quick || QUICK_IMAGES.includes(image.file))
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-quality-'))
  try {
    const images: PreparedImage[] = []
    for (const image of chosen) images.push(await prepareImage(CORPUS, image, dir))
    log(`${images.length} images prepared in ${dir}; skipped ${manifest.skipped.join(', ')}`)
    await warmUpImgapi(await Bun.file(images[0]!.png).bytes(), ['jpeg', 'webp', 'avif', 'png'])
    const { outputs, failures, scorer } = await encodeAndScore(images, dir, settings)
    const analysis = analyse(outputs)
    const facts = {
      ...settings,
      otherCpus: witness.otherCpus(),
      seconds: performance.now() / 1000,
      scorer,
      skipped: manifest.skipped,
      images,
      failures,
    }
    await writeResults(
      join(RESULTS, settings.quick ? 'quality-quick.json' : 'quality.json'),
      outputs,
      analysis,
      facts,
    )
    console.log(reportText(outputs, analysis, facts))
    if (failures.length > 0)
      console.error(`FAILED: ${failures.length} encode(s) or score(s):\n  ${failures.join('\n  ')}`)
    return failures.length > 0 ? 1 : 0
  } finally {
    if (settings.keep) console.error(`outputs kept in ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:quality: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  },
)

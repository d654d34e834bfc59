/*
 * imgapi against IPX (unjs/ipx, also built on sharp), side by side in one run: the same resize
 * and encode asked of both over loopback HTTP, in alternating rounds, so that the ratios hold on
 * a noisy 2-core machine. Each row prints both throughputs, both servers' file sizes and their
 * similarity to the resized photo, so that a smaller file is judged at equal similarity. Then,
 * in-process with imgapi's core, the encoder settings that are not API options (WebP's
 * smartSubsample, mozjpeg's tuning, the AVIF effort the encode budget picks), each against what
 * IPX asks sharp for, and the quality at which imgapi's files reach IPX's similarity.
 *
 * Usage: bun bench/peers/peers.ts [--quick] [--variant <format>:<option>=<value>[&...]]...
 *   full (~17 min): 5 rounds, writes bench/peers/results/peers.json. --quick (~10 min): 3 rounds,
 *   writes bench/peers/results/peers-quick.json (not committed). A --variant is an extra row: imgapi's
 *   request with these options (quality included) against the same IPX request; given any, they
 *   replace the default variants (webp:effort=2, jpeg:progressive=false).
 * --isolation (~8 min): instead of IPX, imgapi with its jobs in the server process
 *   (IMGAPI_IN_PROCESS_JOBS=true) against imgapi with worker processes, on the base rows.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { engineVersions, sharp } from '../../src/image/sharp.ts'
import { CORPUS, ROOT } from '../../tests/helpers/paths.ts'
import { runBenchMain, startCpuWitness } from '../common/server.ts'
import type { Photo } from './clients.ts'
import { findEqualSimilarity, type EqualSimilarity } from './equal-similarity.ts'
import { measureInProcess } from './in-process.ts'
import { measureIsolation } from './isolation.ts'
import { CONCURRENCY, measureRow, type RowRun } from './measure.ts'
import { formatResults, type Results } from './print.ts'
import { GOAL, reportRow, reportSetting, type RowReport } from './report.ts'
import { buildRows, DEFAULT_VARIANTS, WIDTH } from './rows.ts'
import { startPeers } from './servers.ts'
import { prepareReferences, scoreSamples } from './similarity.ts'

const RESULTS = resolve(import.meta.dir, 'results')
/** 4-6 MP photos of different content: a sunny pier, fine foliage, a workshop close-up, a dusky lake (progressive). */
const PHOTOS = [
  'photo-pier-4mp.jpg',
  'photo-forest-path-4mp.jpg',
  'photo-circular-saw-6mp.jpg',
  'photo-lake-dusk-4mp-progressive.jpg',
]

const log = (line: string) => console.error(`[${(performance.now() / 1000).toFixed(0)} s] ${line}`)

function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      variant: { type: 'string', multiple: true },
      isolation: { type: 'boolean', default: false },
    },
  })
  const quick = values.quick
  return {
    quick,
    isolation: values.isolation,
    variants: values.variant?.length ? values.variant : [...DEFAULT_VARIANTS],
    rounds: quick ? 3 : 5,
    inProcessRounds: quick ? 3 : 5,
  }
}

async function loadPhotos(): Promise<Photo[]> {
  return Promise.all(
    PHOTOS.map(async (name) => ({ name, bytes: await Bun.file(join(CORPUS, name)).bytes() })),
  )
}

async function measureRows(cli: ReturnType<typeof parseCli>, photos: readonly Photo[]) {
  const rows = buildRows(cli.variants, photos.length)
  const peers = await startPeers(ROOT, CORPUS)
  try {
    const witness = startCpuWitness()
    const runs = []
    for (const row of rows) runs.push(await measureRow(row, photos, peers, cli.rounds, log))
    return { runs, otherCpus: witness.otherCpus(), peers }
  } finally {
    await peers.stop()
  }
}

/** Scores every row's samples, then the in-process comparisons on the rows of imgapi's defaults. */
async function analyse(runs: readonly RowRun[], photos: readonly Photo[], rounds: number) {
  log('similarity of every output')
  const references = await prepareReferences(
    photos,
    runs.map((run) => run.row.width),
  )
  const rows: RowReport[] = []
  for (const run of runs) {
    const imgapi = await scoreSamples(run.samples.imgapi, references, run.row.width)
    const ipx = await scoreSamples(run.samples.ipx, references, run.row.width)
    rows.push(reportRow(run, { imgapi, ipx }))
  }
  // The in-process comparisons are of the encoders at the compared width.
  const base = runs.filter((run) => !run.row.variant && run.row.width === WIDTH).map((run) => run.row)
  const settings = await measureInProcess(base, photos, references, rounds, log)
  const equalSimilarity: EqualSimilarity[] = []
  for (const row of base) {
    log(`in-process ${row.name}: the quality that reaches IPX's similarity`)
    const report = rows.find((r) => r.name === row.name)!
    equalSimilarity.push(await findEqualSimilarity(row, report, photos, references))
  }
  return { rows, inProcess: settings.map((s) => reportSetting(s, runs)), equalSimilarity }
}

/** Written as the formatter would write it, so that the committed result passes `prettier --check`. */
async function writeResults(file: string, results: Results): Promise<void> {
  const options = { ...(await prettier.resolveConfig(file)), filepath: file }
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(file, await prettier.format(JSON.stringify(results), options))
}

async function main(): Promise<number> {
  const cli = parseCli(process.argv.slice(2))
  const missing = PHOTOS.filter((name) => !existsSync(join(CORPUS, name)))
  if (missing.length > 0) {
    console.log(`bench: ${missing.join(', ')} not found in ${CORPUS} (corpus absent); nothing to measure.`)
    return 0
  }
  const photos = await loadPhotos()
  if (cli.isolation) {
    const { lines, failures } = await measureIsolation(ROOT, photos, cli.rounds, log)
    console.log(lines.join('\n'))
    if (failures.length > 0) console.error(`FAILED:\n  ${failures.slice(0, 10).join('\n  ')}`)
    return failures.length > 0 ? 1 : 0
  }
  const { runs, otherCpus, peers } = await measureRows(cli, photos)
  const analysed = await analyse(runs, photos, cli.inProcessRounds)
  const results: Results = {
    mode: cli.quick ? 'quick' : 'full',
    goal: GOAL,
    run: {
      photos: PHOTOS,
      width: WIDTH,
      concurrency: CONCURRENCY,
      rounds: cli.rounds,
      inProcessRounds: cli.inProcessRounds,
    },
    machine: {
      cpus: availableParallelism(),
      bun: Bun.version,
      imgapi: {
        ...engineVersions(),
        workers: peers.imgapiWorkers,
        libvipsThreadsPerJob: sharp.concurrency(),
      },
      ipx: peers.ipxFacts,
      otherCpus,
    },
    ...analysed,
  }
  await writeResults(join(RESULTS, cli.quick ? 'peers-quick.json' : 'peers.json'), results)
  console.log(formatResults(results))
  return analysed.rows.some((row) => row.failures.length > 0) ? 1 : 0
}

runBenchMain(main)

/**
 * `imgapi compress` against the same encodes done in this process with sharp: the corpus photos
 * (the JPEGs of MANIFEST.tsv) to WebP at width 1600, read from a folder and written to another,
 * at the same concurrency; then its start-up on one small file. Each photo is copied --repeat
 * times under other names, so the batch is long enough for the command's start-up (a few
 * hundred ms, measured on its own at the end) not to be the whole story. sharp-cli and
 * @squoosh/cli do the same folder in the same rounds (peers.ts), unless --no-peers.
 * Usage: bun bench/cli/cli.ts [--jobs N] [--rounds 3] [--repeat 4] [--startup-runs 5] [--no-peers] [--json]
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import { CORPUS, FIXTURES, HAS_CORPUS, readManifest, ROOT } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { startNoiseWitness } from '../common/proc.ts'
import { runBenchMain } from '../common/server.ts'
import { encodeWebp1600 } from '../common/sharp-baseline.ts'
import { peerRound, PEERS, type PeerSide } from './peers.ts'

/** `imgapi compress` should keep at least this share of the in-process throughput. */
const GOAL = 0.95
const FLAGS = ['--format', 'webp', '--width', '1600']

interface Side {
  readonly ms: number
  /** CPU time: the command and the workers it waited for; this process for sharp. */
  readonly cpuMs: number
  readonly bytes: number
  readonly files: number
}

const command = (args: readonly string[]) => [
  process.execPath,
  join(ROOT, 'src/index.ts'),
  'compress',
  ...args,
]

async function cliRound(input: string, out: string, jobs: number): Promise<Side> {
  const started = performance.now()
  const proc = Bun.spawn(command([input, '--out', out, '--jobs', String(jobs), '--json', ...FLAGS]), {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [text, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const ms = performance.now() - started
  const usage = proc.resourceUsage()
  const cpuMs = usage ? Number(usage.cpuTime.total) / 1000 : Number.NaN
  if (code !== 0) throw new Error(`imgapi compress exited ${code}: ${stderr.slice(0, 500)}`)
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { compressedSize: number })
  return { ms, cpuMs, bytes: lines.reduce((sum, line) => sum + line.compressedSize, 0), files: lines.length }
}

/** The same work in this process: read, encode, write; `jobs` files at a time. */
async function sharpRound(files: readonly string[], out: string, jobs: number): Promise<Side> {
  const started = performance.now()
  const cpu0 = process.cpuUsage()
  mkdirSync(out, { recursive: true })
  let next = 0
  let bytes = 0
  const lane = async () => {
    while (next < files.length) {
      const file = files[next++]!
      const data = await encodeWebp1600(await Bun.file(file).bytes())
      await Bun.write(join(out, basename(file).replace(/\.jpe?g$/i, '.webp')), data)
      bytes += data.length
    }
  }
  await Promise.all(Array.from({ length: jobs }, lane))
  const cpu = process.cpuUsage(cpu0)
  return {
    ms: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes,
    files: files.length,
  }
}

async function startupMs(scratch: string, runs: number): Promise<number[]> {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const out = join(scratch, `startup-${run}`)
    const started = performance.now()
    const proc = Bun.spawn(command([join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), '--out', out]), {
      stdout: 'ignore',
      stderr: 'ignore',
    })
    if ((await proc.exited) !== 0) throw new Error('imgapi compress failed on the small file')
    times.push(performance.now() - started)
  }
  return times
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: String(availableParallelism()) },
      rounds: { type: 'string', default: '3' },
      repeat: { type: 'string', default: '4' },
      'startup-runs': { type: 'string', default: '5' },
      'no-peers': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  })
  if (!HAS_CORPUS) {
    console.log(`bench: the corpus is not at ${CORPUS}; nothing to measure.`)
    return 0
  }
  const jobs = Number(values.jobs)
  const rounds = Number(values.rounds)
  const scratch = mkdtempSync(join(tmpdir(), 'imgapi-bench-cli-'))
  try {
    const input = join(scratch, 'photos')
    mkdirSync(input)
    // The photos: the corpus's bad-*.jpg are JPEGs by name only, and are the hardening study's.
    const photos = readManifest(CORPUS).filter(
      (row) => row.file.startsWith('photo-') && row.format.startsWith('JPEG'),
    )
    const names = photos.flatMap((row) =>
      Array.from({ length: Number(values.repeat) }, (_, copy) =>
        copy ? `copy-${copy}-${row.file}` : row.file,
      ),
    )
    for (const name of names) copyFileSync(join(CORPUS, name.replace(/^copy-\d+-/, '')), join(input, name))
    const files = names.map((name) => join(input, name))
    // Unmeasured: the page cache holds the photos and the executable's modules, for both sides.
    await cliRound(input, join(scratch, 'warm-cli'), jobs)
    await sharpRound(files, join(scratch, 'warm-sharp'), jobs)
    const peers = values['no-peers'] ? [] : PEERS
    const peerRuns = new Map<string, PeerSide[]>(peers.map((peer) => [peer.name, []]))
    const runnable = peers.filter((peer) => !peer.missing())
    // Unmeasured too, so that each peer's modules are in the page cache as well.
    for (const peer of runnable) await peerRound(peer, files, join(scratch, `warm-${peer.name}`), jobs)
    const witness = startNoiseWitness()
    const cli: Side[] = []
    const inProcess: Side[] = []
    for (let round = 0; round < rounds; round++) {
      // Rotating the order spreads slow drift of the machine over every side alike.
      const sides = [
        async () => cli.push(await cliRound(input, join(scratch, `cli-${round}`), jobs)),
        async () => inProcess.push(await sharpRound(files, join(scratch, `sharp-${round}`), jobs)),
        ...runnable.map(
          (peer, i) => async () =>
            peerRuns
              .get(peer.name)!
              .push(await peerRound(peer, files, join(scratch, `peer-${i}-${round}`), jobs)),
        ),
      ]
      const shift = round % sides.length
      for (const run of [...sides.slice(shift), ...sides.slice(0, shift)]) await run()
    }
    const sharpMs = median(inProcess.map((s) => s.ms))
    const peerReport = peers.map((peer) => {
      const runs = peerRuns.get(peer.name)!
      if (runs.length === 0) return { name: peer.name, missing: peer.missing() }
      const ms = median(runs.map((s) => s.ms))
      return {
        name: peer.name,
        medianS: Number((ms / 1000).toFixed(2)),
        files: runs[0]!.files,
        filesPerSecond: Number((runs[0]!.files / (ms / 1000)).toFixed(2)),
        throughputVsSharp: Number((runs[0]!.files / ms / (files.length / sharpMs)).toFixed(3)),
        cpuMsPerFile: Math.round(median(runs.map((s) => s.cpuMs)) / runs[0]!.files),
        bytes: runs[0]!.bytes,
      }
    })
    const ratios = cli.map((side, i) => inProcess[i]!.ms / side.ms)
    const ratio = median(ratios)
    const startup = await startupMs(scratch, Number(values['startup-runs']))
    const report = {
      photos: photos.length,
      files: files.length,
      jobs,
      rounds,
      throughputRatio: Number(ratio.toFixed(3)),
      goal: GOAL,
      met: ratio >= GOAL,
      perRound: ratios.map((r) => Number(r.toFixed(3))),
      cliFilesPerSecond: Number((files.length / (median(cli.map((s) => s.ms)) / 1000)).toFixed(2)),
      sharpFilesPerSecond: Number((files.length / (median(inProcess.map((s) => s.ms)) / 1000)).toFixed(2)),
      cliCpuMsPerFile: Math.round(median(cli.map((s) => s.cpuMs)) / files.length),
      sharpCpuMsPerFile: Math.round(median(inProcess.map((s) => s.cpuMs)) / files.length),
      cliBytes: cli[0]!.bytes,
      sharpBytes: inProcess[0]!.bytes,
      peers: peerReport,
      startupMedianMs: Math.round(median(startup)),
      startupMs: startup.map(Math.round),
      otherCpusBusy: Number(witness.otherCpus().toFixed(2)),
    }
    writeFileSync(join(import.meta.dir, 'results/cli.json'), `${JSON.stringify(report, null, 2)}\n`)
    if (values.json) console.log(JSON.stringify(report))
    else
      console.log(
        [
          `${files.length} files (${photos.length} corpus photos, ${values.repeat} copies each) to WebP at width 1600, --jobs ${jobs}, ${rounds} rounds`,
          `| side | median s | files/s | CPU ms per file | bytes |`,
          `|---|---|---|---|---|`,
          `| imgapi compress | ${(median(cli.map((s) => s.ms)) / 1000).toFixed(2)} | ${report.cliFilesPerSecond} | ${report.cliCpuMsPerFile} | ${report.cliBytes} |`,
          `| in-process sharp | ${(median(inProcess.map((s) => s.ms)) / 1000).toFixed(2)} | ${report.sharpFilesPerSecond} | ${report.sharpCpuMsPerFile} | ${report.sharpBytes} |`,
          ...peerReport.map((peer) =>
            'missing' in peer
              ? `| ${peer.name} | not run: ${peer.missing} | | | |`
              : `| ${peer.name} | ${peer.medianS} | ${peer.filesPerSecond} | ${peer.cpuMsPerFile} | ${peer.bytes} |`,
          ),
          `throughput ratio ${report.throughputRatio} (per round ${report.perRound.join(' ')}; goal >= ${GOAL}, ${report.met ? 'met' : 'GOAL MISSED'})`,
          `start-up, one 1x1 PNG: median ${report.startupMedianMs} ms (${report.startupMs.join(' ')})`,
          `other work kept ${report.otherCpusBusy} CPUs busy meanwhile`,
        ].join('\n'),
      )
    return 0
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

runBenchMain(main)

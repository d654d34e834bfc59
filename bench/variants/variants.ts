import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { CORPUS, HAS_CORPUS, ROOT } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'
import { startPeakSampler, treeCpuSeconds, treeStatusBytes } from '../common/proc.ts'
import { startCpuWitness, startServer, type ServerHandle } from '../common/server.ts'

/**
 * One upload, many outputs: a responsive set (3 widths x AVIF, WebP, JPEG) in one request with
 * `variants`, against the same 9 outputs in 9 requests, in the same run, on a server with one
 * worker so that fanning out over workers does not hide what the list shares. Wall time and
 * the server's CPU (its process and its worker), medians of alternating rounds; peak RSS of the
 * server and its worker on each side.
 *
 * Usage: bun bench/variants/variants.ts [--rounds 5] [--json]
 */
const args = process.argv.slice(2)
const ROUNDS = Number(args[args.indexOf('--rounds') + 1] ?? 5) || 5
const WIDTHS = [480, 960, 1920]
const FORMATS = ['avif', 'webp', 'jpeg']
/** One request's time against the 9 requests': this study's goal. */
const VARIANTS_GOAL = 0.6
const SET = WIDTHS.flatMap((width) => FORMATS.map((format) => ({ width, format })))

interface Photo {
  readonly name: string
  readonly bytes: Uint8Array
}

/** A 12 MP photo made from the corpus's 20 MP one (4000 x 3000, quality 90), and a 4 MP one as it is. */
async function photos(): Promise<Photo[]> {
  const bird = await Bun.file(join(CORPUS, 'photo-bird-nuthatch-20mp.jpg')).arrayBuffer()
  const twelve = await sharp(bird)
    .rotate()
    .resize(4000, 3000, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer()
  const pier = await Bun.file(join(CORPUS, 'photo-pier-4mp.jpg')).arrayBuffer()
  return [
    { name: 'photo-bird 12 MP (4000x3000)', bytes: new Uint8Array(twelve) },
    { name: 'photo-pier-4mp.jpg (2560x1600)', bytes: new Uint8Array(pier) },
  ]
}

interface Side {
  readonly wallMs: number
  readonly cpuMs: number
  readonly peakBytes: number
  readonly outputBytes: number
}

async function measured(server: ServerHandle, run: () => Promise<number>): Promise<Side> {
  const cpu0 = treeCpuSeconds(server.pid)
  const peak = startPeakSampler(() => treeStatusBytes(server.pid, 'VmRSS'))
  const t0 = performance.now()
  const outputBytes = await run()
  const wallMs = performance.now() - t0
  return { wallMs, cpuMs: (treeCpuSeconds(server.pid) - cpu0) * 1000, peakBytes: peak.stop(), outputBytes }
}

async function ok(response: Response): Promise<number> {
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
  const body = await response.arrayBuffer()
  return body.byteLength
}

const oneRequest = (server: ServerHandle, photo: Photo) => () =>
  fetch(`${server.baseUrl}/api/compress?variants=${encodeURIComponent(JSON.stringify(SET))}`, {
    method: 'POST',
    body: photo.bytes as Uint8Array<ArrayBuffer>,
  }).then(ok)

const nineRequests = (server: ServerHandle, photo: Photo) => async () => {
  let bytes = 0
  for (const { width, format } of SET) {
    bytes += await ok(
      await fetch(`${server.baseUrl}/api/compress?width=${width}&format=${format}`, {
        method: 'POST',
        body: photo.bytes as Uint8Array<ArrayBuffer>,
      }),
    )
  }
  return bytes
}

const MIB = 1024 * 1024

if (!HAS_CORPUS) {
  console.log(`[skipped] the variants benchmark: the shared corpus is not at ${CORPUS}`)
  process.exit(0)
}

const server = await startServer({
  repoRoot: ROOT,
  env: { IMGAPI_WORKERS: '1', IMGAPI_JOB_TIMEOUT_MS: '120000' },
})
const witness = startCpuWitness()
const report: Record<string, unknown>[] = []
try {
  for (const photo of await photos()) {
    // One of each first: the worker's first job starts libvips' threads and pools.
    await oneRequest(server, photo)()
    await nineRequests(server, photo)()
    const one: Side[] = []
    const nine: Side[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, so that slow drift of a shared machine falls on both sides alike.
      one.push(await measured(server, oneRequest(server, photo)))
      nine.push(await measured(server, nineRequests(server, photo)))
    }
    const of = (sides: Side[], key: keyof Side) => median(sides.map((side) => side[key]))
    const row = {
      photo: photo.name,
      oneRequest: {
        wallMs: of(one, 'wallMs'),
        cpuMs: of(one, 'cpuMs'),
        peakMiB: Math.max(...one.map((s) => s.peakBytes)) / MIB,
      },
      nineRequests: {
        wallMs: of(nine, 'wallMs'),
        cpuMs: of(nine, 'cpuMs'),
        peakMiB: Math.max(...nine.map((s) => s.peakBytes)) / MIB,
      },
      wallRatio: of(one, 'wallMs') / of(nine, 'wallMs'),
      cpuRatio: of(one, 'cpuMs') / of(nine, 'cpuMs'),
      // The ZIP holds the same images plus its headers and manifest.
      zipBytes: of(one, 'outputBytes'),
      imagesBytes: of(nine, 'outputBytes'),
    }
    report.push(row)
  }
} finally {
  await server.stop()
}
const otherCpus = witness.otherCpus()

const lines = [
  `A responsive set (widths ${WIDTHS.join(', ')} x ${FORMATS.join(', ')}) from one upload against 9 requests; one worker; medians of ${ROUNDS} alternating rounds`,
  '| photo | one request: wall ms | CPU ms | peak RSS MiB | 9 requests: wall ms | CPU ms | peak RSS MiB | wall ratio | CPU ratio |',
  '|---|---|---|---|---|---|---|---|---|',
  ...report
    .map((row: any) =>
      [
        row.photo,
        row.oneRequest.wallMs.toFixed(0),
        row.oneRequest.cpuMs.toFixed(0),
        row.oneRequest.peakMiB.toFixed(0),
        row.nineRequests.wallMs.toFixed(0),
        row.nineRequests.cpuMs.toFixed(0),
        row.nineRequests.peakMiB.toFixed(0),
        `${row.wallRatio.toFixed(2)}x`,
        `${row.cpuRatio.toFixed(2)}x`,
      ].join(' | '),
    )
    .map((line) => `| ${line} |`),
  ...report.map(
    (row: any) =>
      `goal, ${row.photo}: one request at ${row.wallRatio.toFixed(2)}x the time of 9 (goal at most ${VARIANTS_GOAL}x): ${row.wallRatio <= VARIANTS_GOAL ? 'met' : 'not met'}`,
  ),
  `other work on the machine meanwhile: ${otherCpus.toFixed(2)} CPUs on average`,
]
console.log(lines.join('\n'))
if (args.includes('--json')) console.error(JSON.stringify({ rounds: ROUNDS, otherCpus, report }, null, 2))
mkdirSync(join(import.meta.dir, 'results'), { recursive: true })
writeFileSync(join(import.meta.dir, 'results', 'variants.txt'), `${lines.join('\n')}\n`)
writeFileSync(
  join(import.meta.dir, 'results', 'variants.json'),
  `${JSON.stringify({ rounds: ROUNDS, otherCpus, report }, null, 2)}\n`,
)

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS, FIXTURES, HAS_CORPUS, ROOT } from '../../tests/helpers/paths.ts'
import { median, percentile, runConcurrent } from '../common/figures.ts'
import { runBenchMain, startCpuWitness, startServer, type ServerHandle } from '../common/server.ts'

/**
 * What naming an image by `url` costs over uploading the same bytes, from loopback: the extra
 * time per request (median and p95 of requests sent one at a time, the two kinds alternating),
 * and throughput with 8 requests in flight of each kind, in alternating rounds of the same run.
 * The origin is a Bun server in this process on 127.0.0.1, let in by IMGAPI_URL_ALLOW, so the
 * fetch goes through the whole guard: resolution, the address check, the pinned connection,
 * the bounded read.
 *
 * Usage: bun bench/url-source/url-source.ts [--requests 40] [--rounds 3]
 */
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) || fallback : fallback
}
const REQUESTS = option('--requests', 40)
const ROUNDS = option('--rounds', 3)
const CONCURRENCY = 8
/** A typical call: a photo to a WebP for a page. */
const QUERY = 'format=webp&width=1200'

interface Photo {
  readonly name: string
  readonly bytes: Uint8Array
}

async function photos(): Promise<Photo[]> {
  const names = HAS_CORPUS
    ? [
        [CORPUS, 'photo-pier-4mp.jpg'],
        [CORPUS, 'photo-lake-dusk-4mp-progressive.jpg'],
      ]
    : [[FIXTURES, 'photo-exif-orientation-6.jpg']]
  return Promise.all(
    names.map(async ([dir, name]) => ({
      name: name!,
      bytes: new Uint8Array(await Bun.file(join(dir!, name!)).arrayBuffer()),
    })),
  )
}

async function ok(response: Response): Promise<void> {
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`)
  await response.arrayBuffer()
}

function kinds(server: ServerHandle, originUrl: string) {
  return {
    upload: (photo: Photo) =>
      fetch(`${server.baseUrl}/api/compress?${QUERY}`, {
        method: 'POST',
        body: photo.bytes as Uint8Array<ArrayBuffer>,
      }).then(ok),
    url: (photo: Photo) =>
      fetch(
        `${server.baseUrl}/api/compress?${QUERY}&url=${encodeURIComponent(`${originUrl}/${photo.name}`)}`,
        {
          method: 'POST',
        },
      ).then(ok),
  }
}

async function main(): Promise<number> {
  const set = await photos()
  const byName = new Map(set.map((photo) => [photo.name, photo.bytes]))
  const origin = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const bytes = byName.get(decodeURIComponent(new URL(request.url).pathname.slice(1)))
      return bytes
        ? new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'image/jpeg' } })
        : new Response('not found', { status: 404 })
    },
  })
  const server = await startServer({
    repoRoot: ROOT,
    env: { IMGAPI_URL_ALLOW: '127.0.0.1/32' },
  })
  const witness = startCpuWitness()
  const send = kinds(server, `http://127.0.0.1:${origin.port}`)
  const latencies = { upload: [] as number[], url: [] as number[] }
  const throughput = { upload: [] as number[], url: [] as number[] }
  try {
    for (const photo of set) {
      await send.upload(photo)
      await send.url(photo)
    }
    for (let round = 0; round < ROUNDS; round++) {
      // One at a time, the kinds alternating request by request.
      for (let i = 0; i < REQUESTS; i++) {
        const photo = set[i % set.length]!
        for (const kind of ['upload', 'url'] as const) {
          const started = performance.now()
          await send[kind](photo)
          latencies[kind].push(performance.now() - started)
        }
      }
      // 8 in flight, one kind and then the other.
      for (const kind of ['upload', 'url'] as const) {
        const load = await runConcurrent(REQUESTS * 2, CONCURRENCY, (i) => send[kind](set[i % set.length]!))
        if (load.failures.length) throw new Error(`${kind}: ${load.failures[0]}`)
        throughput[kind].push(load.steady.completed / (load.steady.ms / 1000))
      }
    }
  } finally {
    await server.stop()
    origin.stop(true)
  }
  const extra = (p: number) => percentile(latencies.url, p) - percentile(latencies.upload, p)
  const ratios = throughput.url.map((rate, i) => rate / throughput.upload[i]!)
  const report = {
    photos: set.map((photo) => `${photo.name} (${photo.bytes.length} B)`),
    query: QUERY,
    requestsPerRound: REQUESTS,
    rounds: ROUNDS,
    latencyMs: {
      upload: { p50: percentile(latencies.upload, 50), p95: percentile(latencies.upload, 95) },
      url: { p50: percentile(latencies.url, 50), p95: percentile(latencies.url, 95) },
      extraP50: extra(50),
      extraP95: extra(95),
    },
    requestsPerSecond: { upload: median(throughput.upload), url: median(throughput.url) },
    throughputRatio: median(ratios),
    otherCpus: witness.otherCpus(),
  }
  const lines = [
    `A URL source against an upload of the same bytes from loopback: ${report.photos.join(', ')}, ?${QUERY}; ${REQUESTS} requests of each kind per round, ${ROUNDS} rounds`,
    '| | upload | url | url - upload |',
    '|---|---|---|---|',
    `| one at a time, median | ${report.latencyMs.upload.p50.toFixed(0)} ms | ${report.latencyMs.url.p50.toFixed(0)} ms | ${report.latencyMs.extraP50.toFixed(1)} ms |`,
    `| one at a time, p95 | ${report.latencyMs.upload.p95.toFixed(0)} ms | ${report.latencyMs.url.p95.toFixed(0)} ms | ${report.latencyMs.extraP95.toFixed(1)} ms |`,
    `| ${CONCURRENCY} in flight | ${report.requestsPerSecond.upload.toFixed(2)} req/s | ${report.requestsPerSecond.url.toFixed(2)} req/s | ${report.throughputRatio.toFixed(3)}x |`,
    `other work on the machine meanwhile: ${report.otherCpus.toFixed(2)} CPUs on average`,
  ]
  console.log(lines.join('\n'))
  mkdirSync(join(import.meta.dir, 'results'), { recursive: true })
  writeFileSync(join(import.meta.dir, 'results', 'url-source.txt'), `${lines.join('\n')}\n`)
  writeFileSync(join(import.meta.dir, 'results', 'url-source.json'), `${JSON.stringify(report, null, 2)}\n`)
  return 0
}

runBenchMain(main, 'usage: bun bench/url-source/url-source.ts [--requests 40] [--rounds 3]')

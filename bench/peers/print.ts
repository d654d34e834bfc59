/* Everything bench/peers/peers.ts prints: the side-by-side table, the in-process table, then the facts behind them. */
import { median } from '../common/figures.ts'
import type { EqualSimilarity } from './equal-similarity.ts'
import { GOAL, SMALLER_ENOUGH, SSIM_DECIMALS, type InProcessReport, type RowReport } from './report.ts'
import type { IpxFacts } from './servers.ts'

export interface Results {
  readonly mode: 'quick' | 'full'
  readonly goal: string
  readonly run: {
    readonly photos: readonly string[]
    readonly width: number
    readonly concurrency: number
    readonly rounds: number
    readonly inProcessRounds: number
  }
  readonly machine: {
    readonly cpus: number
    readonly bun: string
    readonly imgapi: {
      readonly sharp: string
      readonly libvips: string
      readonly workers: number
      readonly libvipsThreadsPerJob: number
    }
    readonly ipx: IpxFacts
    /** CPUs kept busy by other work, on average over the HTTP rows: the noise. */
    readonly otherCpus: number
  }
  readonly rows: readonly RowReport[]
  readonly inProcess: readonly InProcessReport[]
  readonly equalSimilarity: readonly EqualSimilarity[]
}

/** Above this many CPUs busy elsewhere, the figures say as much about the neighbours as about the servers. */
const NOISY_OTHER_CPUS = 0.2

const kb = (bytes: number) => (bytes / 1000).toFixed(1)
const ssim = (score: number) => score.toFixed(SSIM_DECIMALS)
const cells = (values: readonly string[], widths: readonly number[]) =>
  values.map((value, i) => (i === 0 ? value.padEnd(widths[0]!) : value.padStart(widths[i]!))).join(' ')

const ROW_WIDTHS = [26, 7, 7, 6, 7, 6, 7, 7, 6, 7, 7, 4]
const ROW_HEADER = [
  ['', 'req/s', '', '', 'CPU ms/job', '', 'KB (median)', '', 'bytes', 'SSIM (median)', '', ''],
  ['row', 'imgapi', 'IPX', 'ratio', 'imgapi', 'IPX', 'imgapi', 'IPX', 'ratio', 'imgapi', 'IPX', 'goal'],
]

function rowLine(row: RowReport): string {
  const { imgapi, ipx } = row
  return cells(
    [
      row.name,
      imgapi.requestsPerSecond.toFixed(2),
      ipx.requestsPerSecond.toFixed(2),
      row.throughputRatio.toFixed(2),
      imgapi.cpuMsPerJob.toFixed(0),
      ipx.cpuMsPerJob.toFixed(0),
      kb(imgapi.medianBytes),
      kb(ipx.medianBytes),
      row.bytesRatio.toFixed(2),
      ssim(imgapi.medianSsim),
      ssim(ipx.medianSsim),
      row.verdict.met ? 'met' : 'MISS',
    ],
    ROW_WIDTHS,
  )
}

function rowNotes(row: RowReport): string {
  const perRound = (server: 'imgapi' | 'ipx') =>
    row[server].rounds.map((r) => r.requestsPerSecond.toFixed(2)).join(' ')
  const ratios = row.roundRatios.map((ratio) => ratio.toFixed(2)).join(' ')
  return [
    `- ${row.name}: ${row.verdict.met ? 'goal met' : 'GOAL MISSED'}: ${row.verdict.reason}`,
    `    req/s per round: imgapi ${perRound('imgapi')} | IPX ${perRound('ipx')} | ratio per round ${ratios}`,
    `    ${row.imgapiRequest} vs ${row.ipxRequest}; ${row.requestsPerRound} requests per server per round; ` +
      `client CPU ms/job imgapi ${row.imgapi.clientCpuMsPerJob.toFixed(0)}, IPX ${row.ipx.clientCpuMsPerJob.toFixed(0)}; ` +
      `other work ${row.otherCpus.toFixed(2)} CPUs over ${row.seconds.toFixed(0)} s`,
    `    server CPU per job imgapi ÷ IPX: ${(row.imgapi.cpuMsPerJob / row.ipx.cpuMsPerJob).toFixed(2)} (other work hardly moves it; req/s it does)`,
  ].join('\n')
}

function inProcessTable(results: readonly InProcessReport[]): string[] {
  const widths = [44, 8, 8, 12, 14, 0]
  const header = ['setting', 'wall ms', 'CPU ms', 'KB (median)', 'SSIM (median)', ' same bytes as']
  const lines = [cells(header, widths)]
  for (const s of results) {
    const bytes = median(s.scored.map((photo) => photo.bytes))
    const score = median(s.scored.map((photo) => photo.ssim))
    const same = s.sameBytesAs.length ? ` ${s.sameBytesAs.join(', ')}` : ' -'
    lines.push(cells([s.name, s.wallMs.toFixed(0), s.cpuMs.toFixed(0), kb(bytes), ssim(score), same], widths))
  }
  // Settings come in pairs: imgapi's, then the one thing changed.
  for (let i = 0; i + 1 < results.length; i += 2) lines.push(pairLine(results[i]!, results[i + 1]!))
  return lines
}

function pairLine(current: InProcessReport, other: InProcessReport): string {
  const total = (s: InProcessReport) => s.scored.reduce((sum, photo) => sum + photo.bytes, 0)
  const score = (s: InProcessReport) => median(s.scored.map((photo) => photo.ssim))
  const delta = score(other) - score(current)
  return (
    `- ${other.name} vs imgapi's: CPU ×${(other.cpuMs / current.cpuMs).toFixed(2)}, ` +
    `wall ×${(other.wallMs / current.wallMs).toFixed(2)}, bytes ×${(total(other) / total(current)).toFixed(2)}, ` +
    `SSIM ${delta >= 0 ? '+' : ''}${delta.toFixed(SSIM_DECIMALS)}`
  )
}

function equalSimilarityTable(results: readonly EqualSimilarity[]): string[] {
  const widths = [10, 9, 9, 9, 9, 9, 6]
  const header = ['row', 'IPX SSIM', 'IPX KB', 'quality', 'SSIM', 'KB', 'bytes']
  const lines = [cells(header, widths)]
  for (const e of results) {
    const found =
      e.quality === undefined
        ? ['none', '', '', '']
        : [String(e.quality), ssim(e.ssim!), kb(e.totalBytes!), e.bytesRatio!.toFixed(2)]
    lines.push(cells([e.row, ssim(e.ipxSsim), kb(e.ipxTotalBytes), ...found], widths))
  }
  return lines
}

function facts({ machine: m, run }: Results): string[] {
  const noise = `other work kept ${m.otherCpus.toFixed(2)} of ${m.cpus} CPUs busy during the HTTP rows`
  return [
    `imgapi: bun ${m.bun}, sharp ${m.imgapi.sharp}, libvips ${m.imgapi.libvips}, IMGAPI_WORKERS=${m.imgapi.workers}, ${m.imgapi.libvipsThreadsPerJob} libvips thread per image`,
    `IPX: ipx ${m.ipx.ipx} on node ${m.ipx.node}, with its own sharp ${m.ipx.sharp} (the ipx devDependency pulls it; imgapi's is not shared), libvips ${m.ipx.libvips}, ${m.ipx.libvipsThreadsPerJob} libvips thread per image, libuv pool ${m.ipx.libuvThreads}`,
    `run: ${run.photos.length} photos (${run.photos.join(', ')}), resized to width ${run.width}, concurrency ${run.concurrency} per server (so neither has more than ${run.concurrency} images in flight), medians of ${run.rounds} alternating rounds`,
    m.otherCpus > NOISY_OTHER_CPUS
      ? `WARNING: ${noise}; the ratios (same rounds, both servers) hold better than the req/s`
      : noise,
  ]
}

export function formatResults(results: Results): string {
  const failures = results.rows.flatMap((row) => row.failures)
  const defaults = results.rows.filter((row) => !row.variant)
  const met = defaults.filter((row) => row.verdict.met).length
  return [
    `## imgapi vs IPX over loopback HTTP (${results.mode} run)`,
    '',
    ...ROW_HEADER.map((header) => cells(header, ROW_WIDTHS)),
    ...results.rows.map(rowLine),
    '',
    `Goal: ${GOAL}.`,
    `Ratios are imgapi ÷ IPX; bytes ratio: total bytes, each photo's output once; SSIM against the photo resized by sharp, never encoded (src/image/search/similarity.ts), equal when equal to ${SSIM_DECIMALS} decimals; "at least 10% smaller" is a bytes ratio <= ${SMALLER_ENOUGH}.`,
    `imgapi's defaults meet the goal in ${met} of ${defaults.length} rows.`,
    ...results.rows.map(rowNotes),
    '',
    `## In-process, no HTTP: imgapi's core (sharp ${results.machine.imgapi.sharp}) on each default row, against one encoder setting changed`,
    `one encode at a time, per encode: medians of ${results.run.inProcessRounds} rounds over the ${results.run.photos.length} photos; SSIM as above; "same bytes as": the HTTP answers it equals byte for byte`,
    '',
    ...inProcessTable(results.inProcess),
    '',
    `## imgapi's files at IPX's similarity: the lowest quality whose median SSIM reaches IPX's (in-process, imgapi's core)`,
    `KB: total over the ${results.run.photos.length} photos; bytes: imgapi's total over IPX's at that quality`,
    '',
    ...equalSimilarityTable(results.equalSimilarity),
    '',
    ...facts(results),
    ...(failures.length
      ? [
          `FAILED: ${failures.length} answer(s) were not valid:`,
          ...failures.slice(0, 10).map((f) => `  ${f}`),
        ]
      : []),
  ].join('\n')
}

/*
 * What a row's rounds and samples add up to, and whether the row meets the goal: imgapi at least
 * as fast as IPX with files no larger; slower only where that buys files at least 10% smaller
 * at equal-or-better similarity.
 */
import { median, type RunFigures } from '../common/figures.ts'
import { SERVERS, type Server } from './clients.ts'
import { sameBytes, type SettingResult } from './in-process.ts'
import type { RowRun } from './measure.ts'
import { imgapiQuery, ipxPath } from './rows.ts'
import type { Scored } from './similarity.ts'

export const GOAL =
  'imgapi at least as fast as IPX with files no larger; a slower row is allowed only where it buys at least 10% smaller files at equal-or-better similarity'
/** "At least 10% smaller": imgapi's total bytes over IPX's. */
export const SMALLER_ENOUGH = 0.9
/** SSIM is compared as printed: two scores that round to the same 4 decimals are equal. */
export const SSIM_DECIMALS = 4

export interface SideReport {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly cpuMsPerJob: number
  readonly clientCpuMsPerJob: number
  readonly medianBytes: number
  readonly totalBytes: number
  readonly medianSsim: number
  readonly photos: readonly Scored[]
  readonly rounds: readonly RunFigures[]
}

export interface Verdict {
  readonly met: boolean
  readonly reason: string
}

export interface RowReport {
  readonly name: string
  readonly variant: boolean
  readonly imgapiRequest: string
  readonly ipxRequest: string
  readonly requestsPerRound: number
  readonly imgapi: SideReport
  readonly ipx: SideReport
  /** imgapi's median req/s over IPX's. */
  readonly throughputRatio: number
  /** Round by round, imgapi's req/s over IPX's in the same round: the spread the noise leaves. */
  readonly roundRatios: readonly number[]
  /** imgapi's total bytes over IPX's, each photo once. */
  readonly bytesRatio: number
  readonly verdict: Verdict
  readonly otherCpus: number
  readonly seconds: number
  readonly failures: readonly string[]
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)
/** A score as printed, for comparing two as equal or not. */
export const roundedSsim = (ssim: number) => Math.round(ssim * 10 ** SSIM_DECIMALS)

function side(rounds: readonly RunFigures[], photos: readonly Scored[]): SideReport {
  const of = (key: keyof RunFigures) => median(rounds.map((round) => round[key]))
  return {
    requestsPerSecond: of('requestsPerSecond'),
    p50Ms: of('p50Ms'),
    cpuMsPerJob: of('cpuMsPerJob'),
    clientCpuMsPerJob: of('clientCpuMsPerJob'),
    medianBytes: median(photos.map((photo) => photo.bytes)),
    totalBytes: sum(photos.map((photo) => photo.bytes)),
    medianSsim: median(photos.map((photo) => photo.ssim)),
    photos,
    rounds,
  }
}

export function judge(
  throughputRatio: number,
  bytesRatio: number,
  imgapiSsim: number,
  ipxSsim: number,
): Verdict {
  const percent = (ratio: number) => `${Math.abs(100 * (1 - ratio)).toFixed(0)}%`
  const similarEnough = roundedSsim(imgapiSsim) >= roundedSsim(ipxSsim)
  if (throughputRatio >= 1 && bytesRatio <= 1) return { met: true, reason: 'as fast, files no larger' }
  if (throughputRatio >= 1) return { met: false, reason: `as fast, but files ${percent(bytesRatio)} larger` }
  const slower = `${throughputRatio.toFixed(2)}× the throughput`
  if (bytesRatio > SMALLER_ENOUGH) {
    const size = bytesRatio <= 1 ? `only ${percent(bytesRatio)} smaller` : `${percent(bytesRatio)} larger`
    return { met: false, reason: `${slower}, files ${size}` }
  }
  if (!similarEnough) {
    return { met: false, reason: `${slower}, files ${percent(bytesRatio)} smaller but at lower similarity` }
  }
  return {
    met: true,
    reason: `${slower}, bought with files ${percent(bytesRatio)} smaller at equal-or-better similarity`,
  }
}

export function reportRow(run: RowRun, scored: Readonly<Record<Server, readonly Scored[]>>): RowReport {
  const sides = { imgapi: side(run.rounds.imgapi, scored.imgapi), ipx: side(run.rounds.ipx, scored.ipx) }
  const throughputRatio = sides.imgapi.requestsPerSecond / sides.ipx.requestsPerSecond
  const bytesRatio = sides.imgapi.totalBytes / sides.ipx.totalBytes
  const roundRatios = run.rounds.imgapi.map(
    (round, i) => round.requestsPerSecond / run.rounds.ipx[i]!.requestsPerSecond,
  )
  return {
    name: run.row.name,
    variant: run.row.variant,
    imgapiRequest: `POST /api/compress?${imgapiQuery(run.row)}`,
    ipxRequest: `GET ${ipxPath(run.row, '')}<photo>`,
    requestsPerRound: run.row.requestsPerRound,
    ...sides,
    throughputRatio,
    roundRatios,
    bytesRatio,
    verdict: judge(throughputRatio, bytesRatio, sides.imgapi.medianSsim, sides.ipx.medianSsim),
    otherCpus: run.otherCpus,
    seconds: run.seconds,
    failures: [...run.failures, ...sizeFailures(scored, run.row.width)],
  }
}

/** Every output as wide as asked, and both servers' of one photo the same size: a smaller picture is not a faster encode. */
function sizeFailures(scored: Readonly<Record<Server, readonly Scored[]>>, wide: number): string[] {
  const failures: string[] = []
  for (const server of SERVERS) {
    for (const { photo, width, height } of scored[server]) {
      const twin = scored.imgapi.find((other) => other.photo === photo)
      if (width !== wide || (twin && twin.height !== height)) {
        failures.push(`${server} ${photo}: ${width}×${height} (imgapi's: ${twin?.width}×${twin?.height})`)
      }
    }
  }
  return failures
}

export type InProcessReport = Omit<SettingResult, 'samples'> & {
  /** The HTTP answers these outputs equal byte for byte, e.g. "IPX webp q75". */
  readonly sameBytesAs: readonly string[]
}

/** An in-process setting, and which server's answers it reproduces exactly. */
export function reportSetting(
  { samples, ...setting }: SettingResult,
  runs: readonly RowRun[],
): InProcessReport {
  const label = (server: Server) => (server === 'ipx' ? 'IPX' : 'imgapi')
  const sameBytesAs = runs.flatMap((run) =>
    SERVERS.filter((server) => sameBytes(samples, run.samples[server])).map(
      (server) => `${label(server)} ${run.row.name}`,
    ),
  )
  return { ...setting, sameBytesAs }
}

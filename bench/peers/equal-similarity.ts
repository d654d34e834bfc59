/*
 * "Smaller files" judged at equal similarity: the lowest quality at which imgapi's own encode
 * (its core, in this process) is at least as similar to the photo as IPX's answer, and what its
 * files weigh there against IPX's. Similarity rises with quality, so the search starts at the
 * row's quality, steps outwards to bracket the answer, then bisects.
 */
import { median } from '../common/figures.ts'
import type { Photo } from './clients.ts'
import { encodeAs, planRequest } from './core.ts'
import { roundedSsim, type RowReport } from './report.ts'
import { imgapiQuery, type Row } from './rows.ts'
import { scoreSamples, type References } from './similarity.ts'

export interface EqualSimilarity {
  readonly row: string
  readonly ipxSsim: number
  readonly ipxTotalBytes: number
  /** The lowest quality that reaches IPX's median SSIM; undefined when even 100 does not. */
  readonly quality?: number
  readonly ssim?: number
  readonly totalBytes?: number
  /** imgapi's total bytes at that quality over IPX's. */
  readonly bytesRatio?: number
}

interface Tried {
  readonly ssim: number
  readonly totalBytes: number
}

async function tryQuality(
  row: Row,
  quality: number,
  photos: readonly Photo[],
  references: References,
): Promise<Tried> {
  const samples = new Map<string, Uint8Array>()
  for (const photo of photos) {
    samples.set(photo.name, await encodeAs(await planRequest(photo, imgapiQuery({ ...row, quality }))))
  }
  const scored = await scoreSamples(samples, references)
  return {
    ssim: median(scored.map((photo) => photo.ssim)),
    totalBytes: scored.reduce((sum, photo) => sum + photo.bytes, 0),
  }
}

export async function findEqualSimilarity(
  row: Row,
  report: RowReport,
  photos: readonly Photo[],
  references: References,
): Promise<EqualSimilarity> {
  const target = roundedSsim(report.ipx.medianSsim)
  const base = { row: row.name, ipxSsim: report.ipx.medianSsim, ipxTotalBytes: report.ipx.totalBytes }
  const tried = new Map<number, Tried>()
  const at = async (quality: number) => {
    if (!tried.has(quality)) tried.set(quality, await tryQuality(row, quality, photos, references))
    return tried.get(quality)!
  }
  const reaches = async (quality: number) => roundedSsim((await at(quality)).ssim) >= target
  const bracket = await bracketFrom(row.quality, reaches)
  if (!bracket) return base
  // Invariant: `low` falls short (0 stands for "below any quality"), `high` reaches the target.
  let { low, high } = bracket
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (await reaches(middle)) high = middle
    else low = middle
  }
  const found = await at(high)
  return { ...base, quality: high, ...found, bytesRatio: found.totalBytes / report.ipx.totalBytes }
}

/** Steps of 1, 2, 4... away from the row's quality until one side falls short and the other reaches. */
async function bracketFrom(
  start: number,
  reaches: (quality: number) => Promise<boolean>,
): Promise<{ low: number; high: number } | undefined> {
  let [low, high] = [start, start]
  if (await reaches(start)) {
    for (let step = 1; low > 0; step *= 2) {
      low = Math.max(0, high - step)
      if (low === 0 || !(await reaches(low))) break
      high = low
    }
    return { low, high }
  }
  for (let step = 1; high < 100; step *= 2) {
    high = Math.min(100, low + step)
    if (await reaches(high)) return { low, high }
    low = high
  }
  return undefined
}

/*
 * A check on what the main timing grid assumes: it uses one photo, but encoders take longer on
 * detail, and a client may send the worst case on purpose (random noise).
 */
import { medianOf } from '../common/figures.ts'
import { repeatWithin, type Budget } from './budget.ts'
import { describeEncode, type Codec, type EncodeSpec } from './encodes.ts'
import { timeEncode, type RawImage, type SeriesTiming, type TimedRun } from './timing.ts'

export interface ContentTiming {
  readonly subject: string
  readonly encode: string
  readonly megapixels: number
  readonly runs: readonly TimedRun[]
  readonly medianSeconds: number
  readonly cpuSecondsPerMegapixel: number
  /** CPU seconds per megapixel over the main photo's for the same encode and size, if in the grid. */
  readonly ratioToMain?: number
}

const efforts = (codec: Codec, values: readonly number[]): EncodeSpec[] =>
  values.map((effort) => ({ codec, effort }))

/** The server's default AVIF effort and the palette encoders' highest, on other real photos. */
export const PHOTO_ENCODES: readonly EncodeSpec[] = [
  ...efforts('avif', [4]),
  ...efforts('png', [10]),
  ...efforts('gif', [10]),
]
/**
 * Noise at 1 MP: AVIF up to effort 4 (at effort 5, noise took 15 CPU seconds a megapixel),
 * the palette encoders at every effort step; at 4 MP, what stays affordable, to check scaling.
 */
export const NOISE_ENCODES_1MP: readonly EncodeSpec[] = [
  ...efforts('avif', [0, 1, 2, 3, 4]),
  ...efforts('png', [1, 4, 7, 10]),
  ...efforts('gif', [1, 4, 7, 10]),
]
export const NOISE_ENCODES_4MP: readonly EncodeSpec[] = [
  ...efforts('avif', [3]),
  ...efforts('png', [1, 4]),
  ...efforts('gif', [1, 4]),
]

function ratioToMain(
  grid: readonly SeriesTiming[],
  spec: EncodeSpec,
  raw: RawImage,
  cpuPerMegapixel: number,
) {
  const series = grid.find((s) => s.encode.codec === spec.codec && s.encode.effort === spec.effort)
  const size = series?.sizes.find((s) => Math.abs(s.megapixels - raw.megapixels) < 0.5)
  return size ? cpuPerMegapixel / (size.medianCpuSeconds / size.megapixels) : undefined
}

async function timeSubject(raw: RawImage, spec: EncodeSpec, grid: readonly SeriesTiming[], budget: Budget) {
  const runs = await repeatWithin(
    budget,
    () => timeEncode(raw, spec),
    (run) => run.cpuSeconds,
  )
  const cpuSecondsPerMegapixel = medianOf(runs, (run) => run.cpuSeconds) / raw.megapixels
  return {
    subject: raw.source.split('/').at(-1) ?? raw.source,
    encode: describeEncode(spec),
    megapixels: raw.megapixels,
    runs,
    medianSeconds: medianOf(runs, (run) => run.seconds),
    cpuSecondsPerMegapixel,
    ratioToMain: ratioToMain(grid, spec, raw, cpuSecondsPerMegapixel),
  }
}

/** Each pair of image and encodes, in order; `grid` supplies the main photo's figures. */
export async function timeContent(
  plan: readonly (readonly [RawImage, readonly EncodeSpec[]])[],
  grid: readonly SeriesTiming[],
  budget: Budget,
  log: (line: string) => void,
): Promise<ContentTiming[]> {
  const rows: ContentTiming[] = []
  for (const [raw, specs] of plan)
    for (const spec of specs) {
      const row = await timeSubject(raw, spec, grid, budget)
      log(
        `content ${row.subject} ${row.encode} at ${raw.megapixels.toFixed(1)} MP: ${row.medianSeconds.toFixed(2)} s`,
      )
      rows.push(row)
    }
  return rows
}

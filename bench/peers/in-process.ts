/*
 * Encoder settings that are not API options, measured in this process with imgapi's core
 * (bench/peers/core.ts: its sharp, one libvips thread, no cache): for each format, imgapi's
 * request as the server runs it, against the same plan with one encoder setting changed to
 * what IPX asks sharp for. One encode at a time, so CPU time per encode is the encode's own;
 * the two settings of a pair alternate round by round.
 */
import { median } from '../common/figures.ts'
import { procCpuSeconds } from '../common/proc.ts'
import type { Photo } from './clients.ts'
import { encodeAs, planRequest, type Encoder, type PlannedPhoto } from './core.ts'
import type { Samples } from './measure.ts'
import { imgapiQuery, type Row } from './rows.ts'
import { scoreSamples, type References, type Scored } from './similarity.ts'

export interface Change {
  readonly name: string
  readonly encoder: Encoder
}

/** Per format, what IPX's request differs in (besides sharp's version), as an encoder on imgapi's plan. */
export const CHANGES: Readonly<Record<Row['format'], Change>> = {
  webp: {
    name: 'smartSubsample=false',
    encoder: (image, plan) =>
      image.webp({ quality: plan.quality, lossless: false, effort: plan.effort, smartSubsample: false }),
  },
  // IPX: toFormat('jpeg', { quality }) with its jpegProgressive default; no mozjpeg tuning.
  jpeg: {
    name: "sharp's defaults (as IPX)",
    encoder: (image, plan) => image.jpeg({ quality: plan.quality, progressive: true }),
  },
  // IPX: toFormat('avif', { quality }): sharp's default effort, 4, whatever the size.
  avif: {
    name: 'effort 4 (as IPX)',
    encoder: (image, plan) => image.avif({ quality: plan.quality, effort: 4 }),
  },
}

export interface SettingResult {
  readonly name: string
  /** Per round: mean milliseconds per encode, wall and CPU. */
  readonly rounds: readonly { readonly wallMs: number; readonly cpuMs: number }[]
  readonly wallMs: number
  readonly cpuMs: number
  readonly scored: readonly Scored[]
  /** The outputs, for telling which server's answers they are byte for byte; not saved. */
  readonly samples: Samples
}

interface Setting {
  readonly name: string
  readonly encoder?: Encoder
}

async function timeSetting(planned: readonly PlannedPhoto[], setting: Setting) {
  const samples = new Map<string, Uint8Array>()
  const [wall0, cpu0] = [performance.now(), procCpuSeconds('self')]
  for (const one of planned) samples.set(one.photo.name, await encodeAs(one, setting.encoder))
  const timing = {
    wallMs: (performance.now() - wall0) / planned.length,
    cpuMs: ((procCpuSeconds('self') - cpu0) * 1000) / planned.length,
  }
  return { timing, samples }
}

/** The settings' names say what imgapi's plan was, e.g. the AVIF effort its encode budget chose. */
function settingsFor(row: Row, planned: readonly PlannedPhoto[]): Setting[] {
  const efforts = [...new Set(planned.map(({ plan }) => plan.effort))].join('/')
  const imgapi = `${row.name}, imgapi${row.format === 'avif' ? ` (effort ${efforts} at this size)` : ''}`
  return [
    { name: imgapi },
    { name: `${row.name}, ${CHANGES[row.format].name}`, encoder: CHANGES[row.format].encoder },
  ]
}

export async function measureInProcess(
  rows: readonly Row[],
  photos: readonly Photo[],
  references: References,
  rounds: number,
  log: (line: string) => void,
): Promise<SettingResult[]> {
  const results: SettingResult[] = []
  for (const row of rows) {
    const planned = await Promise.all(photos.map((photo) => planRequest(photo, imgapiQuery(row))))
    const settings = settingsFor(row, planned)
    const timings = settings.map(() => [] as { wallMs: number; cpuMs: number }[])
    // The first pass warms up and gives the samples; the encoders are deterministic.
    const samples: Samples[] = []
    for (const setting of settings) samples.push((await timeSetting(planned, setting)).samples)
    for (let r = 0; r < rounds; r++) {
      for (const [i, setting] of settings.entries())
        timings[i]!.push((await timeSetting(planned, setting)).timing)
      log(`in-process ${row.name}, round ${r + 1}/${rounds}`)
    }
    for (const [i, setting] of settings.entries()) {
      const mine = timings[i]!
      results.push({
        name: setting.name,
        rounds: mine,
        wallMs: median(mine.map((round) => round.wallMs)),
        cpuMs: median(mine.map((round) => round.cpuMs)),
        scored: await scoreSamples(samples[i]!, references),
        samples: samples[i]!,
      })
    }
  }
  return results
}

/** True when both hold the same photos with the same bytes: the same encoder, settings and resize. */
export function sameBytes(a: Samples, b: Samples): boolean {
  if (a.size === 0 || a.size !== b.size) return false
  return [...a].every(([photo, bytes]) => {
    const other = b.get(photo)
    return other !== undefined && Buffer.from(bytes).equals(other)
  })
}

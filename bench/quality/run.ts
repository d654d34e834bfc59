/*
 * Everything quality.ts encodes for one prepared image: imgapi's requests one at a time
 * (their wall time is a goal), then the peers' ladders, `jobs` tools at once (their CPU time
 * comes from each child's rusage, which other work does not change).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AUTO_QUALITIES } from '../../src/options/schema.ts'
import { runConcurrent } from '../common/figures.ts'
import type { Output } from './compare.ts'
import { FORMATS_BY_CLASS, type Codec } from '../common/corpus.ts'
import { runImgapi } from '../common/in-process.ts'
import type { PreparedImage } from './prepare.ts'
import { PEERS, runLadder } from './peers.ts'

/** maxBytes targets, as a share of the prepared PNG (level 9): about quality 80-90, 80 and 55 on the photos. */
export const TARGET_SHARE: Readonly<Partial<Record<Codec, number>>> = { jpeg: 0.1, webp: 0.06, avif: 0.03 }

/** The levels measured; auto-low is left out to keep the run bounded. */
const LEVELS = AUTO_QUALITIES.filter((level) => level !== 'auto-low')

const EXTENSIONS: Readonly<Record<string, string>> = { jpeg: 'jpg', webp: 'webp', avif: 'avif', png: 'png' }

export interface ImageRun {
  readonly outputs: Output[]
  /** Output id -> file, for scoring. */
  readonly files: Map<string, string>
  readonly failures: string[]
}

interface Request {
  readonly setting: string
  readonly query: Record<string, string>
  readonly targetBytes?: number
}

function requestsFor(image: PreparedImage, format: Codec): Request[] {
  const requests: Request[] = [{ setting: 'default', query: { format } }]
  for (const level of LEVELS) requests.push({ setting: level, query: { format, quality: level } })
  const share = TARGET_SHARE[format]
  if (share !== undefined && image.imageClass !== 'graphic') {
    const targetBytes = Math.round(share * image.pngBytes)
    requests.push({ setting: 'maxBytes', query: { format, maxBytes: String(targetBytes) }, targetBytes })
  }
  if (format === 'png') requests.push({ setting: 'lossless', query: { format, lossless: 'true' } })
  return requests
}

const outputId = (image: PreparedImage, format: Codec, producer: string, setting: string) =>
  `${image.file}|${format}|${producer}|${setting}`

async function imgapiOutputs(image: PreparedImage, format: Codec, dir: string, run: ImageRun) {
  const input = await Bun.file(image.png).bytes()
  const base = { image: image.file, imageClass: image.imageClass, format, producer: 'imgapi' }
  for (const request of requestsFor(image, format)) {
    const id = outputId(image, format, 'imgapi', request.setting)
    const target = request.targetBytes === undefined ? {} : { targetBytes: request.targetBytes }
    try {
      const done = await runImgapi(input, request.query)
      const path = join(
        dir,
        `${image.file}.imgapi-${format}-${request.setting}.${EXTENSIONS[done.outputFormat]}`,
      )
      writeFileSync(path, done.data)
      run.files.set(id, path)
      const { wallMs, cpuMs, quality, encodes, similarity } = done
      const measured = {
        ...(similarity === undefined ? {} : { imgapiSsim: similarity }),
        ...(done.kind === 'compressed' ? {} : { kind: done.kind }),
      }
      run.outputs.push({
        ...base,
        id,
        setting: request.setting,
        bytes: done.data.length,
        wallMs,
        cpuMs,
        quality,
        encodes,
        ...measured,
        ...target,
      })
    } catch (error) {
      const message = error instanceof Error ? `${error.name} ${error.message}` : String(error)
      run.outputs.push({
        ...base,
        id,
        setting: request.setting,
        bytes: Number.NaN,
        wallMs: Number.NaN,
        cpuMs: Number.NaN,
        error: message,
        ...target,
      })
      if (request.setting !== 'maxBytes') run.failures.push(`${id}: ${message}`)
    }
  }
}

export async function runImage(
  image: PreparedImage,
  dir: string,
  quick: boolean,
  jobs: number,
): Promise<ImageRun> {
  const run: ImageRun = { outputs: [], files: new Map(), failures: [] }
  const formats = FORMATS_BY_CLASS[image.imageClass]
  for (const format of formats) await imgapiOutputs(image, format, dir, run)
  // The slowest ladders (AVIF, listed after the rest) first, so that the lanes end together.
  const peers = PEERS.filter((peer) => formats.includes(peer.format)).reverse()
  const ladders = await runConcurrent(peers.length, jobs, async (i) => {
    const peer = peers[i]!
    for (const out of await runLadder(peer, image, dir, quick)) {
      const id = outputId(image, out.format, out.peer, out.setting)
      run.files.set(id, out.path)
      const { path: _path, peer: producer, ...measured } = out
      run.outputs.push({ ...measured, id, image: image.file, imageClass: image.imageClass, producer })
    }
  })
  run.failures.push(...ladders.failures.map((failure) => `${image.file}: ${failure}`))
  return run
}

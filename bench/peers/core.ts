/*
 * imgapi's own core, called without HTTP: the query parsed and planned as POST /api/compress
 * does (defaults filled in, the AVIF effort lowered to fit the encode budget), then the
 * pipeline. The in-process comparisons change the encoder alone and keep every other step.
 */
import { loadConfig } from '../../src/config.ts'
import { parseCompressOptions } from '../../src/options/parse.ts'
import { openImage, runPipeline } from '../../src/image/pipeline.ts'
import { planCandidates } from '../../src/image/plan-candidates.ts'
import type { JobPlan } from '../../src/image/plan.ts'
import { probeImage, type ImageProbe } from '../../src/image/probe.ts'
import type { Sharp } from '../../src/image/sharp.ts'
import { metadata, runSteps, TRANSFORM } from '../../src/image/steps/index.ts'
import type { Photo } from './clients.ts'

/** The settings the servers run with: they inherit this process's environment, IMGAPI_* included. */
const CONFIG = loadConfig({ env: process.env })
const PIPELINE_OPTIONS = { maxInputPixels: CONFIG.maxInputPixels, timeoutSeconds: CONFIG.jobTimeoutMs / 1000 }

export interface PlannedPhoto {
  readonly photo: Photo
  readonly probe: ImageProbe
  readonly plan: JobPlan
}

/** An encoder in place of imgapi's, given imgapi's plan (its quality, effort...). */
export type Encoder = (image: Sharp, plan: JobPlan) => void

export async function planRequest(photo: Photo, query: string): Promise<PlannedPhoto> {
  const options = parseCompressOptions(new Map(new URLSearchParams(query)), CONFIG)
  const probe = await probeImage(photo.bytes, CONFIG.maxUploadBytes)
  // The decode budget is the server's memory guard, not a property of the encode.
  const limits = { ...CONFIG, decodeBudgetBytes: Number.MAX_SAFE_INTEGER }
  const [planned] = planCandidates(options, probe, limits, {})
  return { photo, probe, plan: planned!.plan }
}

/** imgapi's pipeline as the server runs it, or with `encoder` in place of its encode step. */
export async function encodeAs({ photo, probe, plan }: PlannedPhoto, encoder?: Encoder): Promise<Uint8Array> {
  if (!encoder) return (await runPipeline(photo.bytes, probe, plan, PIPELINE_OPTIONS)).data
  const opened = await openImage(photo.bytes, probe, plan, PIPELINE_OPTIONS)
  const timeoutSeconds = PIPELINE_OPTIONS.timeoutSeconds
  opened.timeout({ seconds: timeoutSeconds })
  const { image } = await runSteps([...TRANSFORM, metadata], opened, {
    input: photo.bytes,
    probe,
    plan,
    timeoutSeconds,
  })
  encoder(image, plan)
  return image.toBuffer()
}

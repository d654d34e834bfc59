/*
 * The jobs sent together as the variants of one request, from its JSON answer: each entry is
 * one job's image (a data URI, decoded here) with the facts a request alone gives in headers,
 * or that job's own problem while the others have their images.
 */
import { problemFrom, type Problem } from '../api/problem.ts'
import type { Answer } from '../api/send.ts'
import type { Job, JobResult } from './job.ts'
import { resultPath } from './result.ts'

interface Entry {
  readonly index: number
  readonly problem?: Partial<Problem> & { readonly status?: number }
  readonly data?: string
  readonly outputFormat?: string
  readonly width?: number
  readonly height?: number
  readonly quality?: number | string | null
  readonly result?: string
  readonly similarity?: { readonly metric: string; readonly score: number }
  readonly resizedToFit?: { readonly width: number; readonly height: number }
}

interface Envelope {
  readonly originalFormat: string
  readonly originalSize: number
  readonly variants: readonly Entry[]
}

export type VariantOutcome = { readonly result: JobResult } | { readonly problem: Problem }

function bytesOf(dataUri: string): { bytes: Uint8Array<ArrayBuffer>; mime: string } {
  const comma = dataUri.indexOf(',')
  const mime = /^data:([^;,]+)/.exec(dataUri)?.[1] ?? 'application/octet-stream'
  const text = atob(dataUri.slice(comma + 1))
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return { bytes, mime }
}

function resultOf(job: Job, entry: Entry, envelope: Envelope, extensionOf: (f: string) => string): JobResult {
  const { bytes, mime } = bytesOf(entry.data ?? '')
  const format = entry.outputFormat ?? ''
  const extension = extensionOf(format)
  const { similarity, resizedToFit } = entry
  return {
    blob: new Blob([bytes], { type: mime }),
    originalSize: envelope.originalSize,
    name: job.name ? job.name(extension) : resultPath(job.path, job.query, extension),
    format,
    originalFormat: envelope.originalFormat,
    width: entry.width ?? 0,
    height: entry.height ?? 0,
    // As a request alone says them in its headers.
    quality: entry.quality === undefined || entry.quality === null ? null : String(entry.quality),
    similarity: similarity ? `${similarity.metric}=${similarity.score.toFixed(4)}` : null,
    kind: entry.result ?? null,
    resizedToFit: resizedToFit ? `${resizedToFit.width}x${resizedToFit.height}` : null,
  }
}

/** Each job's outcome, in the order the jobs were sent (the order of `variants`). */
export async function variantOutcomes(
  jobs: readonly Job[],
  answer: Answer,
  extensionOf: (format: string) => string,
): Promise<VariantOutcome[]> {
  const envelope = JSON.parse(await answer.body.text()) as Envelope
  return jobs.map((job, index) => {
    const entry = envelope.variants.find((e) => e.index === index)
    if (!entry) return { problem: problemFrom({}, 500) }
    if (entry.problem) return { problem: problemFrom(entry.problem, entry.problem.status ?? 500) }
    return { result: resultOf(job, entry, envelope, extensionOf) }
  })
}

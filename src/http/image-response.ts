import type { CompressResult } from '../image/compress.ts'
import type { StoredObject } from '../store/index.ts'
import { FORMAT_TABLE } from '../formats/format-table.ts'
import { contentDisposition } from './filename.ts'
import { wantsJson } from './negotiate.ts'

export interface ResponseContext {
  readonly request: Request
  readonly baseName: string
  /** Milliseconds spent reading the upload. */
  readonly readMs: number
  /** Where a url's image came from: the URL after redirects (as shown), and the fetch's milliseconds. */
  readonly source?: { readonly url: string; readonly fetchMs: number }
}

/** The facts about a result, shared by the headers and the JSON envelope so they cannot differ. */
export function describeResult(result: CompressResult, baseName: string, sourceUrl?: string) {
  const format = FORMAT_TABLE[result.outputFormat]
  return {
    ...(sourceUrl ? { sourceUrl } : {}),
    result: result.kind,
    filename: `${baseName}.${format.extensions[0]}`,
    mime: format.mime,
    originalSize: result.inputBytes,
    compressedSize: result.data.length,
    compressionRatio: Number((result.data.length / result.inputBytes).toFixed(4)),
    originalFormat: result.inputFormat,
    outputFormat: result.outputFormat,
    width: result.width,
    height: result.height,
    frames: result.frames,
    quality: result.quality,
    ignoredOptions: result.ignored,
    encodes: result.encodes,
    ...(result.similarity ? { similarity: result.similarity } : {}),
    ...(result.resizedTo ? { resizedToFit: result.resizedTo } : {}),
  }
}

/** Where the time went; `encodes` counts every output's (several with variants). */
export function serverTiming(
  timings: CompressResult['timings'],
  results: readonly Pick<CompressResult, 'encodes'>[],
  context: Pick<ResponseContext, 'readMs' | 'source'>,
): string {
  const { probe, queue, process } = timings
  const { readMs } = context
  const fetchMs = context.source?.fetchMs
  const encodes = results.reduce((sum, result) => sum + result.encodes, 0)
  const total = readMs + (fetchMs ?? 0) + probe + queue + process
  const entry = (name: string, ms: number) => `${name};dur=${ms.toFixed(1)}`
  return [
    entry('read', readMs),
    ...(fetchMs !== undefined ? [entry('fetch', fetchMs)] : []),
    entry('probe', probe),
    entry('queue', queue),
    entry('process', process),
    entry('total', total),
    // How many encodes the job tried: 1, or a search's count.
    `encodes;desc="${encodes}"`,
  ].join(', ')
}

/** The image, or its JSON envelope; with `stored`, always the envelope, saying where it went instead. */
export function imageResponse(
  result: CompressResult,
  context: ResponseContext,
  stored?: StoredObject,
): Response {
  const facts = describeResult(result, context.baseName, context.source?.url)
  const headers: Record<string, string> = {
    'content-disposition': contentDisposition(facts.filename),
    'x-original-size': String(facts.originalSize),
    'x-compressed-size': String(facts.compressedSize),
    'x-compression-ratio': facts.compressionRatio.toFixed(4),
    'x-original-format': facts.originalFormat,
    'x-output-format': facts.outputFormat,
    'x-image-width': String(facts.width),
    'x-image-height': String(facts.height),
    'x-result': facts.result,
    'server-timing': serverTiming(result.timings, [result], context),
    'cache-control': 'no-store',
  }
  if (facts.sourceUrl) headers['x-source-url'] = facts.sourceUrl
  if (facts.quality !== undefined) headers['x-quality'] = String(facts.quality)
  if (facts.similarity)
    headers['x-similarity'] = `${facts.similarity.metric}=${facts.similarity.score.toFixed(4)}`
  if (facts.resizedToFit)
    headers['x-resized-to-fit'] = `${facts.resizedToFit.width}x${facts.resizedToFit.height}`
  if (facts.ignoredOptions.length > 0) headers['x-ignored-options'] = facts.ignoredOptions.join(',')
  if (stored) {
    delete headers['content-disposition']
    return Response.json({ ...facts, stored }, { headers })
  }
  if (wantsJson(context.request.headers.get('accept'), facts.mime)) {
    const data = `data:${facts.mime};base64,${Buffer.from(result.data).toString('base64')}`
    delete headers['content-disposition']
    return Response.json({ ...facts, data }, { headers })
  }
  return new Response(result.data as Uint8Array<ArrayBuffer>, {
    headers: { ...headers, 'content-type': facts.mime },
  })
}

import { makeZip } from 'client-zip'
import { AppError } from '../errors/app-error.ts'
import { FORMAT_TABLE } from '../formats/format-table.ts'
import type { CompressResult } from '../image/compress.ts'
import type { VariantsResult } from '../image/variants.ts'
import type { StoredObject, StoreOutcome } from '../store/index.ts'
import { describeResult, serverTiming, type ResponseContext } from './image-response.ts'
import { variantsContainer } from './negotiate.ts'
import { toProblem, type Problem } from './problem.ts'
import { metaOf } from './request-meta.ts'

/** A variant as the answer lists it: its envelope fields, or its problem. */
export type VariantEntry =
  | ({ readonly index: number; readonly stored?: StoredObject } & ReturnType<typeof describeResult>)
  | { readonly index: number; readonly problem: Problem }

/**
 * Entry names from `{name}-{width}.{ext}`; two variants of one width and format (two qualities)
 * would share it, so the later one takes `{name}-{width}x{height}`, then a counter.
 */
export function entryNames(baseName: string, results: readonly (CompressResult | undefined)[]): string[] {
  const taken = new Set<string>()
  return results.map((result) => {
    if (!result) return ''
    const ext = FORMAT_TABLE[result.outputFormat].extensions[0]
    const tries = [`${baseName}-${result.width}`, `${baseName}-${result.width}x${result.height}`]
    let name = tries.map((stem) => `${stem}.${ext}`).find((candidate) => !taken.has(candidate))
    for (let n = 2; !name; n++) {
      const candidate = `${tries[1]}-${n}.${ext}`
      if (!taken.has(candidate)) name = candidate
    }
    taken.add(name)
    return name
  })
}

/** The answer's container, or 406 when Accept allows none: checked before any work. */
export function requireVariantsContainer(request: Request) {
  const accept = request.headers.get('accept')
  const container = variantsContainer(accept)
  if (container) return container
  throw new AppError(
    'NOT_ACCEPTABLE',
    `expected Accept to allow application/zip or application/json for a request with variants (several images), received ${JSON.stringify(accept).slice(0, 120)}`,
  )
}

export interface VariantsAnswer {
  readonly response: Response
  /** What was answered, for the access log and the metrics. */
  readonly answered: readonly CompressResult[]
}

/**
 * Every variant, answered as a ZIP (an entry per image, plus manifest.json with each entry's
 * envelope) or as JSON (the same envelope with each image's data URI). Variants that failed are
 * listed with their problem; when none succeeded, the first failure is the request's answer.
 * With `stored` (the request's store), always JSON: each entry says where it was written, or
 * the problem that kept it from the storage.
 */
export async function variantsResponse(
  outcome: VariantsResult,
  context: ResponseContext,
  stored?: readonly (StoreOutcome | undefined)[],
): Promise<VariantsAnswer> {
  const results = outcome.variants.map((variant) => ('result' in variant ? variant.result : undefined))
  const answered = results.filter((result): result is CompressResult => result !== undefined)
  if (answered.length === 0) {
    const first = outcome.variants[0]!
    throw 'error' in first ? first.error : new Error('a variant without result or error')
  }
  const { request } = context
  const requestId = metaOf(request).id
  const names = entryNames(context.baseName, results)
  const entries: VariantEntry[] = outcome.variants.map((variant, index) => {
    if ('error' in variant) return { index, problem: toProblem(variant.error, requestId, request) }
    const store = stored?.[index]
    if (store && 'error' in store) return { index, problem: toProblem(store.error, requestId, request) }
    const facts = { index, ...describeResult(variant.result, context.baseName), filename: names[index]! }
    return store ? { ...facts, stored: store.stored } : facts
  })
  const failed = entries.filter((entry) => 'problem' in entry).length
  const envelope = {
    ...(context.source ? { sourceUrl: context.source.url } : {}),
    originalFormat: outcome.inputFormat,
    originalSize: outcome.inputBytes,
    variants: entries,
  }
  const headers: Record<string, string> = {
    'x-variants': String(entries.length),
    'x-variants-failed': String(failed),
    'server-timing': serverTiming(outcome.timings, answered, context),
    'cache-control': 'no-store',
  }
  if (context.source) headers['x-source-url'] = context.source.url
  if (stored) return { response: Response.json({ ...envelope, variants: entries }, { headers }), answered }
  if (requireVariantsContainer(request) === 'json') {
    const withData = entries.map((entry, index) => {
      const result = results[index]
      if (!result) return entry
      const mime = FORMAT_TABLE[result.outputFormat].mime
      return { ...entry, data: `data:${mime};base64,${Buffer.from(result.data).toString('base64')}` }
    })
    return { response: Response.json({ ...envelope, variants: withData }, { headers }), answered }
  }
  const files = [
    ...results.flatMap((result, index) => (result ? [{ name: names[index]!, input: result.data }] : [])),
    { name: 'manifest.json', input: new TextEncoder().encode(`${JSON.stringify(envelope, null, 2)}\n`) },
  ]
  // Built whole before the first byte goes out: the images are in memory already, and an answer
  // with its length cannot end half-way.
  const zip = new Uint8Array(await new Response(makeZip(files)).arrayBuffer())
  return {
    response: new Response(zip, {
      headers: {
        ...headers,
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${context.baseName.replace(/[^\x20-\x7e]|["\\]/g, '_')}.zip"`,
      },
    }),
    answered,
  }
}

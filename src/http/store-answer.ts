/*
 * A request with store: checked before any work, then each output written and the answer made
 * of where each one went (the JSON envelope, `stored` in place of `data`) or why it did not.
 * The access log and the metrics learn each write's bucket, key and result; never a credential.
 */
import { AppError } from '../errors/app-error.ts'
import type { CompressResult } from '../image/compress.ts'
import type { VariantsResult } from '../image/variants.ts'
import type { Logger } from '../log.ts'
import type { Metrics } from '../metrics/metrics.ts'
import type { CompressOptions } from '../options/schema.ts'
import { storeOff, type Store, type StoreOutcome, type StorePlan } from '../store/index.ts'
import { contentDisposition } from './filename.ts'
import { describeResult, imageResponse, type ResponseContext } from './image-response.ts'
import { metaOf } from './request-meta.ts'
import { entryNames, variantsResponse, type VariantsAnswer } from './variants-response.ts'

/** What storing needs of the app (app-context.ts holds these): the store, the metrics, the log. */
export interface StoreAnswerDeps {
  readonly store: Store | undefined
  readonly metrics: Pick<Metrics, 'storeWrite'>
  readonly logger: Logger
}

/** The request's store checked against the server's destinations, or undefined without one. */
export function planStore(
  context: StoreAnswerDeps,
  options: CompressOptions,
  name: string,
): StorePlan | undefined {
  if (options.store === undefined) return undefined
  if (!context.store) throw storeOff()
  const asks = options.variants?.map((variant) => ({
    width: variant.width ?? options.width,
    height: variant.height ?? options.height,
    dpr: variant.dpr ?? options.dpr,
    format: variant.format ?? options.format,
  }))
  return context.store.plan(options as CompressOptions & { store: string }, name, asks)
}

async function storeResults(
  context: StoreAnswerDeps,
  plan: StorePlan,
  results: readonly (CompressResult | undefined)[],
  filenames: readonly string[],
  request: Request,
): Promise<(StoreOutcome | undefined)[]> {
  const outputs = results.map((result, index) =>
    result
      ? {
          bytes: result.data,
          format: result.outputFormat,
          width: result.width,
          height: result.height,
          contentDisposition: contentDisposition(filenames[index]!),
        }
      : undefined,
  )
  const outcomes = await context.store!.storeAll(plan, outputs, (result) =>
    context.metrics.storeWrite(result),
  )
  const meta = metaOf(request)
  meta.stored = outcomes.flatMap((outcome) => {
    if (!outcome) return []
    if ('stored' in outcome)
      return [{ bucket: outcome.stored.bucket, key: outcome.stored.key, result: 'stored' }]
    return [{ bucket: outcome.bucket, key: outcome.key, result: resultOf(outcome.error) }]
  })
  for (const outcome of outcomes)
    if (outcome && 'error' in outcome && outcome.error.cause)
      context.logger.warn('store failed', {
        requestId: meta.id,
        bucket: outcome.bucket,
        key: outcome.key,
        code: outcome.error.code,
        cause: String(outcome.error.cause),
      })
  return outcomes
}

/** A write's result as the log says it: the metric's words, and `refused` for a key not allowed. */
function resultOf(error: AppError): string {
  if (error.code === 'STORE_EXISTS') return 'exists'
  return error.code === 'STORE_FAILED' ? 'failed' : 'refused'
}

/** The answer when nothing was stored: 409 when every key was taken, else the storage failed. */
function noneStored(errors: readonly AppError[]): AppError | undefined {
  if (errors.length === 0) return undefined
  if (errors.every((error) => error.code === 'STORE_EXISTS')) return errors[0]
  return errors.find((error) => error.code === 'STORE_FAILED') ?? errors[0]
}

export async function storeSingle(
  context: StoreAnswerDeps,
  plan: StorePlan,
  result: CompressResult,
  answer: ResponseContext,
): Promise<Response> {
  const { filename } = describeResult(result, answer.baseName)
  const [outcome] = await storeResults(context, plan, [result], [filename], answer.request)
  if (!outcome || 'error' in outcome) throw outcome?.error ?? new Error('an output without outcome')
  return imageResponse(result, answer, outcome.stored)
}

export async function storeVariants(
  context: StoreAnswerDeps,
  plan: StorePlan,
  outcome: VariantsResult,
  answer: ResponseContext,
): Promise<VariantsAnswer> {
  const results = outcome.variants.map((variant) => ('result' in variant ? variant.result : undefined))
  const names = entryNames(answer.baseName, results)
  const stored = await storeResults(context, plan, results, names, answer.request)
  if (!stored.some((entry) => entry && 'stored' in entry)) {
    const failed = noneStored(stored.flatMap((entry) => (entry && 'error' in entry ? [entry.error] : [])))
    if (failed) throw failed
  }
  return variantsResponse(outcome, answer, stored)
}

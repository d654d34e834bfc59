/*
 * Storing outputs in S3-compatible storage, configured on the server only: a request names a
 * place under one of the operator's destinations and a key template; this folder checks it
 * before any work, then writes each output whole. The only file of this folder others import.
 */
import { createHash } from 'node:crypto'
import { AppError } from '../errors/app-error.ts'
import { FORMAT_TABLE, type OutputFormat } from '../formats/format-table.ts'
import { refuseCollidingVariants, type VariantAsk } from './collisions.ts'
import { resolveTarget, type StoreTarget } from './destinations.ts'
import {
  checkKey,
  dateFact,
  expandTemplate,
  HASH_HEX_DIGITS,
  placeholdersOf,
  type KeyFacts,
} from './key-template.ts'
import { ObjectStore } from './object-store.ts'
import { resolveReadSettings, resolveStoreSettings, type StoreConfig } from './store-settings.ts'
import type { Destination } from './destinations.ts'

export { checkStoreConfig, type StoreConfig } from './store-settings.ts'
export { keyProblem } from './key-template.ts'
export type { Destination } from './destinations.ts'
export type { VariantAsk } from './collisions.ts'

/** Where an output was written, as the answer lists it. */
export interface StoredObject {
  readonly bucket: string
  readonly key: string
  readonly bytes: number
  readonly etag: string
  readonly url: string
  readonly signedUrl?: string
  readonly signedUrlExpiresAt?: string
}

/** An output stored, or why not, with the key it was to have (for the log, never the answer's detail). */
export type StoreOutcome =
  | { readonly stored: StoredObject }
  | { readonly error: AppError; readonly bucket: string; readonly key: string }
/** How each write ended, as imgapi_store_writes_total counts it. */
export const WRITE_RESULTS = ['stored', 'exists', 'failed'] as const
export type WriteResult = (typeof WRITE_RESULTS)[number]

/** One output to store: its bytes and what its key and headers are made of. */
export interface StoreOutput {
  readonly bytes: Uint8Array
  readonly format: OutputFormat
  readonly width: number
  readonly height: number
  readonly contentDisposition: string
}

/** A request's store, checked before any work. */
export interface StorePlan extends StoreTarget {
  readonly name: string
  readonly date: string
  readonly overwrite: boolean
  readonly signedUrlExpires?: number
}

export interface StoreRequest {
  readonly store: string
  readonly storeOverwrite?: boolean
  readonly storeSignedUrlExpires?: number
}

function factsOf(
  plan: StorePlan,
  output: Pick<StoreOutput, 'format' | 'width' | 'height' | 'bytes'>,
): KeyFacts {
  return {
    name: plan.name,
    width: String(output.width),
    height: String(output.height),
    ext: FORMAT_TABLE[output.format].extensions[0]!,
    format: output.format,
    hash: output.bytes.length
      ? createHash('sha256').update(output.bytes).digest('hex').slice(0, HASH_HEX_DIGITS)
      : '0'.repeat(HASH_HEX_DIGITS),
    date: plan.date,
  }
}

export class Store {
  readonly #objects: ObjectStore

  constructor(objects: ObjectStore) {
    this.#objects = objects
  }

  /**
   * The request's store checked before any work: its destination, its template's placeholders,
   * the key it gives with the upload's name (sizes and hash stood in for), and, with variants,
   * that no two of them share a key.
   */
  plan(request: StoreRequest, name: string, variants?: readonly VariantAsk[]): StorePlan {
    const target = resolveTarget(request.store, this.#objects.settings.destinations)
    const used = placeholdersOf(target.template)
    const plan: StorePlan = {
      ...target,
      name,
      date: dateFact(),
      overwrite: request.storeOverwrite === true,
      ...(request.storeSignedUrlExpires !== undefined
        ? { signedUrlExpires: request.storeSignedUrlExpires }
        : {}),
    }
    // Stand-ins as long as the real values get (5-digit sides, 4-letter formats): a key over
    // the limit is refused now, not after the work.
    const sample = { format: 'webp', width: 16_383, height: 16_383, bytes: new Uint8Array() } as const
    checkKey(target.prefix + expandTemplate(target.template, factsOf(plan, sample)))
    if (variants) refuseCollidingVariants(used, variants)
    return plan
  }

  /**
   * Writes each output in turn, one PUT each, and says for each whether it was stored or why
   * not; an output that is missing (its variant failed) is skipped. Two outputs on one key: the
   * later one is refused, never written over the first.
   */
  async storeAll(
    plan: StorePlan,
    outputs: readonly (StoreOutput | undefined)[],
    counted: (result: WriteResult) => void,
  ): Promise<(StoreOutcome | undefined)[]> {
    const taken = new Map<string, number>()
    const outcomes: (StoreOutcome | undefined)[] = []
    for (const [index, output] of outputs.entries()) {
      if (!output) {
        outcomes.push(undefined)
        continue
      }
      outcomes.push(await this.#storeOne(plan, output, index, taken, counted))
    }
    return outcomes
  }

  async #storeOne(
    plan: StorePlan,
    output: StoreOutput,
    index: number,
    taken: Map<string, number>,
    counted: (result: WriteResult) => void,
  ): Promise<StoreOutcome> {
    const key = plan.prefix + expandTemplate(plan.template, factsOf(plan, output))
    try {
      checkKey(key)
      const earlier = taken.get(key)
      if (earlier !== undefined)
        throw new AppError(
          'STORE_NOT_ALLOWED',
          `expected a key of its own, received ${key}, the key of variants[${earlier}]; add {hash} to the template`,
        )
      taken.set(key, index)
      const put = await this.#objects.put({
        bucket: plan.bucket,
        key,
        bytes: output.bytes,
        contentType: FORMAT_TABLE[output.format].mime,
        contentDisposition: output.contentDisposition,
        overwrite: plan.overwrite,
      })
      counted('stored')
      return {
        stored: { bucket: plan.bucket, key, bytes: output.bytes.length, ...put, ...this.#signed(plan, key) },
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      if (error.code === 'STORE_EXISTS') counted('exists')
      else if (error.code === 'STORE_FAILED') counted('failed')
      return { error, bucket: plan.bucket, key }
    }
  }

  #signed(plan: StorePlan, key: string) {
    const seconds = plan.signedUrlExpires
    if (seconds === undefined) return {}
    return {
      signedUrl: this.#objects.signedGet(plan.bucket, key, seconds),
      signedUrlExpiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
    }
  }
}

/** The server's store, or undefined when IMGAPI_STORE is empty. */
export function createStore(config: StoreConfig, send?: typeof fetch): Store | undefined {
  const settings = resolveStoreSettings(config)
  return settings ? new Store(new ObjectStore(settings, send)) : undefined
}

/** A request's store when the server has none: refused before any work, whatever it names. */
export function storeOff(): AppError {
  return new AppError(
    'STORE_NOT_ALLOWED',
    'expected no store option: this server stores nothing (IMGAPI_STORE is not set)',
  )
}

/** Reads objects for s3:// sources: only under its own places (IMGAPI_URL_S3), on the store's connection. */
export interface ObjectReader {
  readonly places: readonly Destination[]
  get(bucket: string, key: string, signal: AbortSignal): Promise<Response>
}

/** The reader of IMGAPI_URL_S3's places, or undefined when that list is empty (s3:// sources are off). */
export function createObjectReader(config: StoreConfig, send?: typeof fetch): ObjectReader | undefined {
  const settings = resolveReadSettings(config)
  if (!settings) return undefined
  const objects = new ObjectStore(settings, send)
  return { places: settings.destinations, get: (bucket, key, signal) => objects.get(bucket, key, signal) }
}

/*
 * The one module that talks to the storage, through Bun's S3Client given every setting
 * explicitly. Each object is one presigned PUT: S3Client.write can set neither Cache-Control
 * nor write-only-if-absent, and a single PUT is all or nothing, so no object is ever partial.
 * The presigned URL carries the access key id and a signature: it never reaches a log or an
 * error, only the object's plain address does.
 */
import { S3Client } from 'bun'
import { AppError } from '../errors/app-error.ts'
import type { StoreSettings } from './store-settings.ts'

/** Seconds a presigned PUT is valid: only for the request that is about to go. */
const PUT_EXPIRES_SECONDS = 300
/** A client told to retry a failed store waits this long. */
export const STORE_RETRY_AFTER_SECONDS = 5

export interface PutRequest {
  readonly bucket: string
  readonly key: string
  readonly bytes: Uint8Array
  readonly contentType: string
  readonly contentDisposition: string
  readonly overwrite: boolean
}

export interface PutResult {
  readonly etag: string
  /** The object's address, unsigned (a public bucket or a CDN in front serves it there). */
  readonly url: string
}

export function storeFailed(detail: string, cause?: unknown): AppError {
  return new AppError('STORE_FAILED', detail, {
    headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) },
    cause,
  })
}

/** The S3 error code of an error answer (`<Code>AccessDenied</Code>`), for the log. */
async function s3Code(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  return /<Code>([^<]{1,64})<\/Code>/.exec(text)?.[1] ?? 'no code'
}

export class ObjectStore {
  readonly #clients = new Map<string, S3Client>()

  constructor(
    readonly settings: StoreSettings,
    private readonly send: typeof fetch = fetch,
  ) {}

  /** Virtual-hosted addressing puts the bucket in the host: Bun then wants it in the endpoint. */
  #client(bucket: string): S3Client {
    let client = this.#clients.get(bucket)
    if (!client) {
      const { endpoint, region, credentials, virtualHosted } = this.settings
      const url = new URL(endpoint)
      if (virtualHosted) url.hostname = `${bucket}.${url.hostname}`
      client = new S3Client({
        ...credentials,
        region,
        endpoint: url.origin + url.pathname.replace(/\/$/, ''),
        bucket,
        virtualHostedStyle: virtualHosted,
      })
      this.#clients.set(bucket, client)
    }
    return client
  }

  /** Writes one object whole, or fails with STORE_EXISTS (already there) or STORE_FAILED. */
  async put(request: PutRequest): Promise<PutResult> {
    const { bucket, key } = request
    const signed = this.#client(bucket).presign(key, { method: 'PUT', expiresIn: PUT_EXPIRES_SECONDS })
    const headers: Record<string, string> = {
      'content-type': request.contentType,
      'content-disposition': request.contentDisposition,
      'cache-control': this.settings.cacheControl,
    }
    // S3 (and MinIO, Ceph, moto) answer 412 when the key is taken: one request, no race.
    if (!request.overwrite) headers['if-none-match'] = '*'
    let response: Response
    try {
      response = await this.send(signed, {
        method: 'PUT',
        body: request.bytes as Uint8Array<ArrayBuffer>,
        headers,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      throw storeFailed(
        timedOut
          ? `expected the storage to take the object within ${this.settings.timeoutMs} ms (IMGAPI_STORE_TIMEOUT_MS); it did not`
          : 'expected the storage to take the object; it could not be reached',
        // The error's name and code only: Bun's message may quote the signed URL.
        `${(error as Error).name} ${(error as NodeJS.ErrnoException).code ?? ''}`.trim(),
      )
    }
    if (response.status === 412) {
      await response.body?.cancel()
      throw new AppError(
        'STORE_EXISTS',
        `expected no object under s3://${bucket}/${key}, or storeOverwrite=true; one is already there`,
      )
    }
    if (!response.ok)
      throw storeFailed(
        `expected the storage to take the object, it answered ${response.status}`,
        `S3 ${response.status} ${await s3Code(response)}`,
      )
    await response.body?.cancel()
    return { etag: response.headers.get('etag')?.replace(/"/g, '') ?? '', url: signed.split('?')[0]! }
  }

  /**
   * One object's answer, through a presigned GET (the caller reads the body under its own
   * limits); the storage unreachable throws as fetch does.
   */
  get(bucket: string, key: string, signal: AbortSignal): Promise<Response> {
    const signed = this.#client(bucket).presign(key, { method: 'GET', expiresIn: PUT_EXPIRES_SECONDS })
    return this.send(signed, { signal, redirect: 'error' })
  }

  /** A presigned GET of a stored object, valid for `seconds`. */
  signedGet(bucket: string, key: string, seconds: number): string {
    return this.#client(bucket).presign(key, { method: 'GET', expiresIn: seconds })
  }
}

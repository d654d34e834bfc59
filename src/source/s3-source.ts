/*
 * s3:// sources: an object of the storage configured for store, read only under the places
 * IMGAPI_URL_S3 lists (a list of its own: the places written to are not readable back unless
 * listed there too). The object is read on the store's connection with a presigned GET, under
 * the same byte limit and deadline as an http(s) source, and its failures are the same codes.
 */
import { AppError } from '../errors/app-error.ts'
import { clip, echo } from '../errors/echo.ts'
import { keyProblem, type ObjectReader } from '../store/index.ts'
import {
  readBody,
  sourceFailed,
  sourceTimedOut,
  type Fetched,
  type SourceHooks,
  type SourceLimits,
} from './fetch-source.ts'
import { notAllowed } from './source-url.ts'

const S3_URL = /^s3:\/\/([^/]+)\/(.+)$/s

/** Whether a url names an object of the storage rather than an http(s) origin. */
export const isS3Url = (text: string): boolean => /^\s*s3:/i.test(text)

export async function fetchS3Source(
  text: string,
  reader: ObjectReader | undefined,
  limits: Pick<SourceLimits, 'maxBytes' | 'deadline' | 'firstByteMs'>,
  hooks: Pick<SourceHooks, 'onLength'>,
): Promise<Fetched> {
  const match = S3_URL.exec(text.trim())
  const shown = clip(match ? `s3://${match[1]}/${match[2]}` : text.trim(), 512)
  if (!reader) throw notAllowed(shown, 's3:// URLs are not read on this server (IMGAPI_URL_S3 is empty)')
  if (!match)
    throw new AppError('INVALID_PARAMETER', `url: expected s3://bucket/key, received ${echo(text)}`, {
      errors: [{ name: 'url', reason: `expected s3://bucket/key, received ${echo(text)}` }],
    })
  const [, bucket, key] = match as unknown as [string, string, string]
  const problem = keyProblem(key)
  if (problem) throw notAllowed(shown, `its key is not read as written: ${problem}`)
  if (!reader.places.some((place) => place.bucket === bucket && key.startsWith(place.prefix)))
    throw notAllowed(shown, 'it is under none of the places this server reads (IMGAPI_URL_S3)')
  const controller = new AbortController()
  const wait = Math.max(0, Math.min(limits.firstByteMs, limits.deadline - performance.now()))
  const timer = setTimeout(() => controller.abort(), wait)
  let response: Response
  try {
    response = await reader.get(bucket, key, controller.signal)
  } catch {
    // Never the error's message: Bun's may quote the presigned URL, which carries the key id.
    if (controller.signal.aborted) throw sourceTimedOut(shown, 'start answering')
    throw sourceFailed(shown, 'the storage could not be reached')
  } finally {
    clearTimeout(timer)
  }
  if (!response.ok) {
    void response.body?.cancel().catch(() => {})
    throw new AppError(
      'SOURCE_FAILED',
      `expected the storage to send the image at ${shown}, it answered ${response.status}`,
      { originStatus: response.status },
    )
  }
  const bytes = await readBody(response, { shown }, limits, hooks)
  return { bytes, finalUrl: shown, redirects: 0 }
}

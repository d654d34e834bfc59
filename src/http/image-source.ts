import { AppError, invalidParameters } from '../errors/app-error.ts'
import type { CompressOptions } from '../options/schema.ts'
import type { UrlSources } from '../source/index.ts'
import { missingFileInForm } from './read-multipart.ts'
import type { UploadBudget } from './upload-budget.ts'
import type { Upload } from './upload.ts'

/** The image a request is about, and where it came from when a url named it. */
export interface ImageSource {
  readonly bytes: Uint8Array
  /** The URL after redirects (as shown), the fetch's milliseconds, and the file name its path ends in. */
  readonly fetched?: { readonly url: string; readonly fetchMs: number; readonly name: string }
}

/** The last segment of a URL's path, decoded: what a browser would save it as. */
function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? ''
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

export interface SourceContext {
  readonly urlSources: UrlSources
  readonly uploads: UploadBudget
  readonly config: { readonly maxUploadBytes: number }
}

function missing(upload: Upload): AppError {
  if (upload.kind === 'multipart') return missingFileInForm(upload.fields)
  if (upload.kind === 'json')
    return new AppError(
      'MISSING_FILE',
      'expected the image named by a member "url" of the JSON body, received none',
    )
  return new AppError(
    'MISSING_FILE',
    'expected an image as the request body, in a multipart field "file", or named by url, received an empty body',
  )
}

/**
 * Exactly one source per request: the body's image, or the image a url names, fetched here.
 * A fetch holds the upload limit of the upload budget from before it connects (a 100-byte JSON
 * body reserved 100 bytes at the door), then what the origin's Content-Length says; `held`
 * gives it back when the request ends.
 */
export async function imageSource(
  context: SourceContext,
  upload: Upload,
  options: CompressOptions,
  held: (release: () => void) => void,
): Promise<ImageSource> {
  if (options.url === undefined) {
    if (!upload.bytes) throw missing(upload)
    return { bytes: upload.bytes }
  }
  if (upload.bytes)
    throw invalidParameters([
      { name: 'url', reason: 'expected the image either in the body or named by url, received both' },
    ])
  const reservation = context.uploads.reserveShrinkable(context.config.maxUploadBytes)
  if (!reservation)
    throw new AppError(
      'OVERLOADED',
      `expected room in the upload budget for a url's image of up to ${context.config.maxUploadBytes} bytes, uploads in progress fill it; retry in 1 s`,
      { headers: { 'retry-after': '1' } },
    )
  held(reservation.release)
  const started = performance.now()
  const fetched = await context.urlSources.fetch(options.url, (bytes) => reservation.shrinkTo(bytes))
  if (fetched.bytes.length === 0)
    throw new AppError('MISSING_FILE', `expected image bytes at ${fetched.finalUrl}, received an empty body`)
  return {
    bytes: fetched.bytes,
    fetched: {
      url: fetched.finalUrl,
      fetchMs: performance.now() - started,
      name: fileNameOf(fetched.finalUrl),
    },
  }
}

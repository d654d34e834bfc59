import { readBoundedBody, type BodyBounds } from './body-stream.ts'
import { filenameFromContentDisposition } from './filename.ts'
import { isJson, readJsonBody } from './read-json-body.ts'
import { readMultipart } from './read-multipart.ts'
import type { Upload } from './upload.ts'

export type { Upload } from './upload.ts'

/** Room for the multipart envelope and option fields around a file of the maximum size. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

export interface UploadLimits {
  readonly maxUploadBytes: number
  /** Monotonic time (performance.now()) by which the whole body must have arrived. */
  readonly deadline: number
}

function isMultipart(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
}

/** The most bytes a compress request may send, envelope included. */
export function maxBodyBytes(request: Request, maxUploadBytes: number): number {
  return isMultipart(request) ? maxUploadBytes + MULTIPART_OVERHEAD_BYTES : maxUploadBytes
}

/**
 * The body, however it was sent: a multipart form (the image in field `file`), a JSON body (the
 * image named by `url`), or any other Content-Type, taken as the raw image (the format is
 * detected from the bytes anyway; an empty one brings no image).
 */
export async function readUpload(request: Request, limits: UploadLimits): Promise<Upload> {
  const bounds: BodyBounds = {
    limitBytes: maxBodyBytes(request, limits.maxUploadBytes),
    maxUploadBytes: limits.maxUploadBytes,
    deadline: limits.deadline,
  }
  if (isMultipart(request)) return readMultipart(request, bounds)
  if (isJson(request)) return readJsonBody(request, bounds)
  const bytes = await readBoundedBody(request, bounds)
  return {
    ...(bytes.length > 0 ? { bytes } : {}),
    filename: filenameFromContentDisposition(request.headers.get('content-disposition')),
    fields: new Map(),
    kind: 'raw',
  }
}

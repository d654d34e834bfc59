import { AppError, type FieldError } from '../errors/app-error.ts'
import { filenameFromContentDisposition } from './filename.ts'

export interface Upload {
  readonly bytes: Uint8Array
  readonly filename?: string
  /** Text fields of a multipart body; empty for a raw body. */
  readonly fields: Readonly<Record<string, string>>
}

/** Room for the multipart envelope and option fields around a file of the maximum size. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

function tooLarge(maxBytes: number, received: string): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `expected an image of at most ${maxBytes} bytes, received ${received}`,
  )
}

function isMultipart(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
}

/**
 * Reads the body while counting, so a chunked upload without Content-Length is cut off at
 * the limit instead of being buffered whole; a declared length over the limit is refused
 * before a byte is read.
 */
async function readBounded(
  request: Request,
  limit: number,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw tooLarge(maxBytes, `a body of ${declared} bytes`)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(maxBytes, `a body of more than ${limit} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, total)
}

async function parseMultipart(
  request: Request,
  body: Uint8Array<ArrayBuffer>,
  maxBytes: number,
): Promise<Upload> {
  let form: FormData
  try {
    form = await new Response(body, {
      headers: { 'content-type': request.headers.get('content-type')! },
    }).formData()
  } catch (error) {
    throw new AppError(
      'MALFORMED_REQUEST',
      'expected a well-formed multipart/form-data body with a boundary, could not parse it',
      {
        cause: error,
      },
    )
  }
  const fields: Record<string, string> = {}
  const errors: FieldError[] = []
  let file: File | undefined
  for (const [name, value] of form.entries()) {
    if (name === 'file') {
      if (typeof value === 'string')
        errors.push({ name, reason: 'expected a file upload, received a text field' })
      else if (file) errors.push({ name, reason: 'expected one file, received several' })
      else file = value
    } else if (typeof value !== 'string')
      errors.push({ name, reason: 'expected a text value, received a file' })
    else if (name in fields)
      errors.push({ name, reason: 'expected the field once, received it more than once' })
    else fields[name] = value
  }
  if (errors.length > 0) {
    throw new AppError('INVALID_PARAMETER', errors.map((e) => `${e.name}: ${e.reason}`).join('; '), {
      errors,
    })
  }
  if (!file) {
    const received = Object.keys(fields).length
      ? `only the fields ${Object.keys(fields).join(', ')}`
      : 'no fields'
    throw new AppError(
      'MISSING_FILE',
      `expected the image in the multipart field "file", received ${received}`,
    )
  }
  if (file.size > maxBytes) throw tooLarge(maxBytes, `a file of ${file.size} bytes`)
  if (file.size === 0)
    throw new AppError(
      'MISSING_FILE',
      'expected image bytes in the field "file", received an empty file (0 bytes)',
    )
  return { bytes: await file.bytes(), filename: file.name || undefined, fields }
}

/**
 * The upload, from a multipart form (field `file`) or a raw body. Any non-multipart
 * Content-Type is taken as raw image bytes: the format is detected from the bytes anyway.
 */
export async function readUpload(request: Request, maxBytes: number): Promise<Upload> {
  if (isMultipart(request)) {
    return parseMultipart(
      request,
      await readBounded(request, maxBytes + MULTIPART_OVERHEAD_BYTES, maxBytes),
      maxBytes,
    )
  }
  const bytes = await readBounded(request, maxBytes, maxBytes)
  if (bytes.length === 0) {
    throw new AppError(
      'MISSING_FILE',
      'expected an image as the request body or in a multipart field "file", received an empty body',
    )
  }
  return {
    bytes,
    filename: filenameFromContentDisposition(request.headers.get('content-disposition')),
    fields: {},
  }
}

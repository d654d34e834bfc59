import { AppError } from '../errors/app-error.ts'
import { readBoundedBody, tooLarge, type BodyBounds } from './body-stream.ts'
import type { Upload } from './upload.ts'

/**
 * A JSON body names its image by `url` and carries the options as its members, in their JSON
 * types. It is read by this reader, never the framework's parser, and bounded: options and a
 * long presigned URL take a few KB, so 64 KiB is room to spare and a 30 MB "JSON body" is an
 * attack.
 */
export const JSON_BODY_BYTES = 64 * 1024

const malformed = (detail: string) => new AppError('MALFORMED_REQUEST', detail)

export function isJson(request: Request): boolean {
  const type = (request.headers.get('content-type') ?? '').toLowerCase().split(';')[0]!.trim()
  return type === 'application/json'
}

export async function readJsonBody(request: Request, bounds: BodyBounds): Promise<Upload> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (Number.isSafeInteger(declared) && declared > JSON_BODY_BYTES)
    throw tooLarge(JSON_BODY_BYTES, `a JSON body of ${declared} bytes`)
  let bytes: Uint8Array
  try {
    bytes = await readBoundedBody(request, {
      ...bounds,
      limitBytes: JSON_BODY_BYTES,
      maxUploadBytes: JSON_BODY_BYTES,
    })
  } catch (error) {
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE')
      throw tooLarge(JSON_BODY_BYTES, `a JSON body of more than ${JSON_BODY_BYTES} bytes`)
    throw error
  }
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw malformed('expected a JSON body that parses (UTF-8), could not parse it')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw malformed(
      'expected a JSON object whose members are the url and the options, received another JSON value',
    )
  // Object.entries takes own members only; `__proto__` in the text is one of them, and the Map
  // keeps it as just another name.
  return { fields: new Map(Object.entries(value).map(([name, json]) => [name, { json }])), kind: 'json' }
}

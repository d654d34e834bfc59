import { once } from 'node:events'
import { Busboy } from '@fastify/busboy'
import { AppError, type FieldError, invalidParameters } from '../errors/app-error.ts'
import { boundedChunks, tooLarge, type BodyBounds } from './body-stream.ts'
import { reclaimSoon } from './reclaim.ts'
import type { Upload } from './upload.ts'

/**
 * A multipart body, parsed as it streams in, so parsing stops at the first part past a limit
 * instead of after the whole body has been buffered and split.
 */
export const MULTIPART_LIMITS = {
  // One file and the dozen options, with room to spare; a body of 568,680 empty fields once
  // cost a gigabyte to parse and answer.
  parts: 32,
  // Option values are short words and numbers; a 1 MB field is an attack, not an option.
  fieldBytes: 1024,
  fieldNameBytes: 100,
  headerPairs: 16,
} as const

const malformed = (detail: string, cause?: unknown) =>
  new AppError('MALFORMED_REQUEST', detail, { cause, headers: { connection: 'close' } })

interface CollectedFile {
  readonly filename: string
  /** Chunks, when the body's length is unknown (chunked) or the file did not fit `into`. */
  readonly chunks: Uint8Array[]
  size: number
  /** One buffer of the body's declared length, filled as the file arrives. */
  readonly into: Uint8Array | undefined
}

/** A buffer for the file part: the declared body length bounds it (the envelope is the rest). */
function preallocated(request: Request, bounds: BodyBounds): Uint8Array | undefined {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  return Number.isSafeInteger(declared) && declared > 0 && declared <= bounds.limitBytes
    ? new Uint8Array(declared)
    : undefined
}

interface Collected {
  readonly fields: Map<string, string>
  readonly errors: FieldError[]
  file?: CollectedFile
  failure?: Error
  /** Called when `failure` is first set, so a read waiting on the parser stops at once. */
  readonly onFailure: () => void
}

function createParser(request: Request, bounds: BodyBounds, into: Collected) {
  let parser: ReturnType<typeof Busboy>
  try {
    parser = Busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: {
        parts: MULTIPART_LIMITS.parts,
        files: 1,
        fieldSize: MULTIPART_LIMITS.fieldBytes,
        fieldNameSize: MULTIPART_LIMITS.fieldNameBytes,
        fileSize: bounds.maxUploadBytes,
        headerPairs: MULTIPART_LIMITS.headerPairs,
      },
    })
  } catch (error) {
    throw malformed(
      'expected a multipart/form-data body with a boundary, received a Content-Type without one',
      error,
    )
  }
  const fail = (error: Error) => {
    into.failure ??= error
    into.onFailure()
  }
  // busboy emits 'error' on a part's stream when the body ends inside that part; an 'error'
  // with no listener ends the process, so every part's stream gets one, whatever its name.
  const parseFailed = (error: unknown) =>
    fail(malformed('expected a well-formed multipart/form-data body, could not parse it', error))
  parser.on('file', (name, stream, filename) => {
    stream.on('error', parseFailed)
    if (name !== 'file') {
      into.errors.push({ name, reason: 'expected a text value, received a file' })
      stream.resume()
      return
    }
    const file = { filename, chunks: [] as Uint8Array[], size: 0, into: preallocated(request, bounds) }
    into.file = file
    stream.on('data', (chunk: Uint8Array) => {
      // Copied into one buffer as it arrives when the body's length is known: an upload then
      // holds its reservation once, not once in chunks and again when they are joined.
      if (file.into && file.size + chunk.byteLength <= file.into.byteLength) file.into.set(chunk, file.size)
      else file.chunks.push(chunk)
      file.size += chunk.byteLength
    })
    stream.on('limit', () => fail(tooLarge(bounds.maxUploadBytes, 'a larger file')))
  })
  parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (name === 'file') into.errors.push({ name, reason: 'expected a file upload, received a text field' })
    else if (valueTruncated)
      into.errors.push({
        name,
        reason: `expected a value of at most ${MULTIPART_LIMITS.fieldBytes} bytes, received a longer one`,
      })
    else if (into.fields.has(name))
      into.errors.push({ name, reason: 'expected the field once, received it more than once' })
    else into.fields.set(name, value)
  })
  parser.on('partsLimit', () =>
    fail(malformed(`expected at most ${MULTIPART_LIMITS.parts} parts, received more`)),
  )
  parser.on('filesLimit', () =>
    fail(invalidParameters([{ name: 'file', reason: 'expected one file, received several' }])),
  )
  parser.on('error', parseFailed)
  return parser
}

export async function readMultipart(request: Request, bounds: BodyBounds): Promise<Upload> {
  let onFailure = () => {}
  const failed = new Promise<void>((resolve) => (onFailure = resolve))
  const collected: Collected = { fields: new Map(), errors: [], onFailure: () => onFailure() }
  const parser = createParser(request, bounds, collected)
  const finished = once(parser, 'finish').catch(() => {})
  for await (const chunk of boundedChunks(request, bounds)) {
    if (collected.failure) break
    // once() rejects on 'error'; the failure is already recorded by the listener above.
    if (!parser.write(chunk)) await Promise.race([once(parser, 'drain').catch(() => {}), finished, failed])
  }
  if (!collected.failure) {
    parser.end()
    await finished
  }
  if (collected.failure) {
    parser.destroy()
    throw collected.failure
  }
  if (collected.errors.length > 0) throw invalidParameters(collected.errors)
  return completeUpload(collected)
}

function completeUpload({ file, fields }: Collected): Upload {
  if (!file) {
    const names = [...fields.keys()]
    const received = names.length ? `only the fields ${names.join(', ')}` : 'no fields'
    throw new AppError(
      'MISSING_FILE',
      `expected the image in the multipart field "file", received ${received}`,
    )
  }
  if (file.size === 0)
    throw new AppError(
      'MISSING_FILE',
      'expected image bytes in the field "file", received an empty file (0 bytes)',
    )
  reclaimSoon(file.size)
  const bytes = file.into && file.chunks.length === 0 ? file.into.subarray(0, file.size) : joined(file)
  return { bytes, filename: file.filename || undefined, fields }
}

/** The file as one buffer when it arrived in chunks (or outgrew its declared length). */
function joined(file: CollectedFile): Uint8Array {
  const head = file.into
    ? file.into.subarray(0, file.size - file.chunks.reduce((n, c) => n + c.byteLength, 0))
    : undefined
  return Buffer.concat(head ? [head, ...file.chunks] : file.chunks, file.size)
}

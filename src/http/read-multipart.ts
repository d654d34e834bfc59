import { once } from 'node:events'
import { Busboy } from '@fastify/busboy'
import { AppError, type FieldError, invalidParameters } from '../errors/app-error.ts'
import { boundedChunks, tooLarge, type BodyBounds } from './body-stream.ts'
import type { Upload } from './upload.ts'

/**
 * A multipart body, parsed as it streams in, so parsing stops at the first part past a limit
 * instead of after the whole body has been buffered and split.
 */
export const MULTIPART_LIMITS = {
  // The image, a watermark and the options, with room to spare; a body of 568,680 empty fields
  // once cost a gigabyte to parse and answer.
  parts: 64,
  // Option values are short words and numbers; a 1 MB field is an attack, not an option.
  fieldBytes: 1024,
  // Except the fields that carry a URL or a list: a presigned URL is 1.5-2.5 KB, a store key
  // up to S3's 1024 bytes after its s3://bucket/prefix/.
  longFieldBytes: 8192,
  fieldNameBytes: 100,
  headerPairs: 16,
} as const

const malformed = (detail: string, cause?: unknown) =>
  new AppError('MALFORMED_REQUEST', detail, { cause, headers: { connection: 'close' } })

/** Text fields that may be up to MULTIPART_LIMITS.longFieldBytes. */
export const LONG_FIELDS = ['url', 'variants', 'store'] as const

/** The file parts a request may carry: the image, and a watermark to put on it. */
const FILE_PARTS = ['file', 'overlay'] as const
type FilePart = (typeof FILE_PARTS)[number]

/**
 * One buffer of the body's declared length, which bounds the files together (the envelope is
 * the rest): they are copied into it one after the other as they arrive.
 */
interface Arena {
  readonly buffer: Uint8Array
  used: number
}

interface CollectedFile {
  readonly filename: string
  /** Where the file starts in the arena: set by its first chunk (busboy announces a part early). */
  start: number | undefined
  /** Its bytes in the arena, which run on from `start`. */
  inArena: number
  /** Chunks, when the body's length is unknown (chunked) or the file did not fit the arena. */
  readonly chunks: Uint8Array[]
  size: number
  readonly into: Arena | undefined
}

function preallocated(request: Request, bounds: BodyBounds): Arena | undefined {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  return Number.isSafeInteger(declared) && declared > 0 && declared <= bounds.limitBytes
    ? { buffer: new Uint8Array(declared), used: 0 }
    : undefined
}

interface Collected {
  readonly fields: Map<string, string>
  readonly errors: FieldError[]
  readonly files: Partial<Record<FilePart, CollectedFile>>
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
        files: FILE_PARTS.length,
        fieldSize: MULTIPART_LIMITS.longFieldBytes,
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
  const arena = preallocated(request, bounds)
  // The image and the watermark share the upload limit: together they are what is decoded.
  let received = 0
  parser.on('file', (name, stream, filename) => {
    stream.on('error', parseFailed)
    if (!(FILE_PARTS as readonly string[]).includes(name) || into.files[name as FilePart]) {
      // Clients often name the image's field "image" or "upload": say where it goes.
      const reason = into.files[name as FilePart]
        ? 'expected one file, received several'
        : `expected a file only in the field ${FILE_PARTS.map((part) => `"${part}"`).join(' or ')}, received one here`
      into.errors.push({ name, reason })
      stream.resume()
      return
    }
    const file: CollectedFile = { filename, start: undefined, inArena: 0, chunks: [], size: 0, into: arena }
    into.files[name as FilePart] = file
    stream.on('data', (chunk: Uint8Array) => {
      // Copied into one buffer as it arrives when the body's length is known: an upload then
      // holds its reservation once, not once in chunks and again when they are joined.
      file.start ??= arena?.used
      const fits =
        arena &&
        file.chunks.length === 0 &&
        arena.used === file.start! + file.inArena &&
        arena.used + chunk.byteLength <= arena.buffer.byteLength
      if (fits) {
        arena.buffer.set(chunk, arena.used)
        arena.used += chunk.byteLength
        file.inArena += chunk.byteLength
      } else file.chunks.push(chunk)
      file.size += chunk.byteLength
      received += chunk.byteLength
      if (received > bounds.maxUploadBytes)
        fail(tooLarge(bounds.maxUploadBytes, 'a larger image and overlay together'))
    })
    stream.on('limit', () => fail(tooLarge(bounds.maxUploadBytes, 'a larger file')))
  })
  parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
    const limit = (LONG_FIELDS as readonly string[]).includes(name)
      ? MULTIPART_LIMITS.longFieldBytes
      : MULTIPART_LIMITS.fieldBytes
    if ((FILE_PARTS as readonly string[]).includes(name))
      into.errors.push({ name, reason: 'expected a file upload, received a text field' })
    else if (valueTruncated || Buffer.byteLength(value) > limit)
      into.errors.push({ name, reason: `expected a value of at most ${limit} bytes, received a longer one` })
    else if (into.fields.has(name))
      into.errors.push({ name, reason: 'expected the field once, received it more than once' })
    else into.fields.set(name, value)
  })
  parser.on('partsLimit', () =>
    fail(malformed(`expected at most ${MULTIPART_LIMITS.parts} parts, received more`)),
  )
  parser.on('filesLimit', () =>
    fail(
      invalidParameters([
        {
          name: 'file',
          reason: 'expected the image (file) and at most a watermark (overlay), received more files',
        },
      ]),
    ),
  )
  parser.on('error', parseFailed)
  return parser
}

export async function readMultipart(request: Request, bounds: BodyBounds): Promise<Upload> {
  let onFailure = () => {}
  const failed = new Promise<void>((resolve) => (onFailure = resolve))
  const collected: Collected = { fields: new Map(), errors: [], files: {}, onFailure: () => onFailure() }
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

/** A multipart body that brought no image, for the route to refuse unless a url names one. */
export function missingFileInForm(fields: ReadonlyMap<string, unknown>): AppError {
  const names = [...fields.keys()]
  const received = names.length ? `only the fields ${names.join(', ')}` : 'no fields'
  return new AppError(
    'MISSING_FILE',
    `expected the image in the multipart field "file", or its url in a field "url", received ${received}`,
  )
}

function completeUpload({ files, fields }: Collected): Upload {
  const { file, overlay } = files
  if (overlay?.size === 0)
    throw invalidParameters([
      { name: 'overlay', reason: 'expected image bytes, received an empty file (0 bytes)' },
    ])
  if (file?.size === 0)
    throw new AppError(
      'MISSING_FILE',
      'expected image bytes in the field "file", received an empty file (0 bytes)',
    )
  return {
    ...(file ? { bytes: joined(file), filename: file.filename || undefined } : {}),
    fields,
    kind: 'multipart',
    ...(overlay ? { overlay: joined(overlay) } : {}),
  }
}

/** The file as one buffer: its place in the arena, then any chunks that did not fit there. */
function joined(file: CollectedFile): Uint8Array {
  const start = file.start ?? 0
  const head =
    file.into && file.inArena > 0 ? file.into.buffer.subarray(start, start + file.inArena) : undefined
  if (head && file.chunks.length === 0) return head
  return Buffer.concat(head ? [head, ...file.chunks] : file.chunks, file.size)
}

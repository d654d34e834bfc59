import { AppError, isAppError } from '../errors/app-error.ts'

/**
 * Maps an error raised by libvips while decoding or encoding an upload to a public code.
 * The libvips text never reaches the client; it travels as `cause` to the log.
 */
const RULES: readonly { pattern: RegExp; error: (message: string) => AppError }[] = [
  {
    pattern: /unsupported image format/i,
    error: () =>
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'expected an image in a readable format, received bytes no decoder recognises',
      ),
  },
  {
    pattern: /input buffer is empty/i,
    error: () => new AppError('MISSING_FILE', 'expected image bytes, received 0 bytes'),
  },
  {
    pattern: /pixel limit|too large|exceeds.*(size|dimension)|maximum.*(size|dimension)/i,
    error: () =>
      new AppError('IMAGE_TOO_LARGE', 'the image is larger than this output format or the server allows'),
  },
  {
    pattern: /timeout/i,
    error: () =>
      new AppError('PROCESSING_TIMEOUT', 'the image took longer than the time limit per job to process'),
  },
]

/** For failures of an image that was already probed: decoding damage unless a rule says otherwise. */
export function classifyImageError(error: unknown): AppError {
  if (isAppError(error)) return error
  const message = error instanceof Error ? error.message : String(error)
  for (const rule of RULES) {
    if (rule.pattern.test(message)) {
      const mapped = rule.error(message)
      return new AppError(mapped.code, mapped.detail, { cause: error })
    }
  }
  return new AppError(
    'CORRUPT_IMAGE',
    'expected a complete, decodable image, received one that is truncated or damaged',
    {
      cause: error,
    },
  )
}

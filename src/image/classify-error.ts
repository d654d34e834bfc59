import { AppError, isAppError } from '../errors/app-error.ts'
import type { ErrorCode } from '../errors/catalogue.ts'

/**
 * Maps an error raised by libvips while reading, decoding or encoding an upload to a public
 * code. The libvips text never reaches the client; it travels as `cause` to the log.
 */
const RULES: readonly { pattern: RegExp; code: ErrorCode; detail: string }[] = [
  {
    pattern: /unsupported image format/i,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    detail: 'expected an image, received bytes that are not in any image format this server reads',
  },
  {
    pattern: /input buffer is empty/i,
    code: 'MISSING_FILE',
    detail: 'expected image bytes, received 0 bytes',
  },
  {
    pattern: /pixel limit|too large|exceeds.*(size|dimension)|maximum.*(size|dimension)/i,
    code: 'IMAGE_TOO_LARGE',
    detail: 'the image is larger than this output format or the server allows',
  },
  {
    pattern: /timeout/i,
    code: 'PROCESSING_TIMEOUT',
    detail: 'the image took longer than the time limit per job to process',
  },
]

/** Damage to the upload unless a rule says otherwise. */
export function classifyImageError(error: unknown): AppError {
  if (isAppError(error)) return error
  const message = error instanceof Error ? error.message : String(error)
  const rule = RULES.find((r) => r.pattern.test(message))
  if (rule) return new AppError(rule.code, rule.detail, { cause: error })
  return new AppError(
    'CORRUPT_IMAGE',
    'expected a complete, decodable image, received one that is truncated or damaged',
    { cause: error },
  )
}

/** A file the decoder refused or could not decode: the API answers 422 CORRUPT_IMAGE. */
export class DecodeError extends Error {}

export interface DecodeLimits {
  /** The decoder's own pixel limit (IMGAPI_MAX_HEIF_PIXELS, IMGAPI_MAX_JXL_PIXELS). */
  readonly maxPixels: number
}

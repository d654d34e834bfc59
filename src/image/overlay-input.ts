import { AppError } from '../errors/app-error.ts'
import { decodes } from './decoders/index.ts'
import { probeImage, type ImageProbe } from './probe.ts'

export interface OverlayLimits {
  readonly maxUploadBytes: number
  readonly maxInputPixels: number
}

/** The same refusal, naming the watermark: the caller sent two images and needs to know which. */
const aboutOverlay = (error: unknown): unknown =>
  error instanceof AppError
    ? new AppError(error.code, `overlay: ${error.detail}`, { headers: error.headers, cause: error.cause })
    : error

/**
 * The watermark's header, checked as the image's is before anything is decoded: its format
 * found from its bytes, an SVG screened, its pixels within the input limit. It is decoded by
 * libvips alone, so HEIC and JPEG XL (WebAssembly decoders, for the image only) are refused.
 */
export async function probeOverlay(bytes: Uint8Array, limits: OverlayLimits): Promise<ImageProbe> {
  let probe: ImageProbe
  try {
    probe = await probeImage(bytes, limits.maxUploadBytes)
  } catch (error) {
    throw aboutOverlay(error)
  }
  if (decodes(probe.format)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `overlay: expected a PNG, WebP, SVG, JPEG, GIF, AVIF or TIFF watermark, received ${probe.format.toUpperCase()}, which this server reads only as the image itself`,
    )
  }
  const pixels = probe.width * probe.height
  if (pixels > limits.maxInputPixels) {
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `overlay: expected at most ${limits.maxInputPixels} pixels, received ${probe.width}x${probe.height} = ${pixels} pixels`,
    )
  }
  return probe
}

import { profileForCodePoints } from './colour-profiles.ts'
import { readHeifColour } from './heif-colour.ts'
import { discardLibheif, libheif, type DecodedHeif, type Libheif } from './libheif-module.ts'
import { pixelsToPng } from './png-output.ts'
import { DecodeError, type DecodeLimits } from './types.ts'

/**
 * HEIF/HEIC to PNG. libheif decodes the primary image only (not the other top-level images,
 * the thumbnails or a depth map), assembles a grid from its tiles and applies the container's
 * irot/imir; like libheif, the EXIF orientation inside the file is not applied again.
 */
function interleavedPlane(lib: Libheif, decoded: DecodedHeif) {
  const plane = decoded.channels.find((c) => c.id === lib.heif_channel.heif_channel_interleaved)
  if (!plane) throw new DecodeError('libheif returned no interleaved plane')
  return plane
}

async function colourProfile(file: Uint8Array): Promise<Uint8Array | undefined> {
  const colour = readHeifColour(file)
  if (!colour) return undefined
  return colour.kind === 'icc' ? colour.icc : profileForCodePoints(colour.primaries, colour.transfer)
}

function decodePrimary(lib: Libheif, context: object, file: Uint8Array, limits: DecodeLimits) {
  const read = lib.heif_context_read_from_memory(context, file)
  if (read.code !== lib.heif_error_code.heif_error_Ok) throw new DecodeError(`libheif: ${read.message}`)
  const handle = lib.heif_js_context_get_primary_image_handle(context)
  if (!handle || handle.code) throw new DecodeError('libheif: no primary image')
  try {
    const width = lib.heif_image_handle_get_width(handle)
    const height = lib.heif_image_handle_get_height(handle)
    // Defence in depth behind the header check: the decoder's own reading of the size.
    if (width * height > limits.maxPixels)
      throw new DecodeError(`${width}x${height} is over the HEIF pixel limit`)
    const alpha = lib.heif_image_handle_has_alpha_channel(handle) !== 0
    const chroma = alpha
      ? lib.heif_chroma.heif_chroma_interleaved_RGBA
      : lib.heif_chroma.heif_chroma_interleaved_RGB
    const decoded = lib.heif_js_decode_image2(handle, lib.heif_colorspace.heif_colorspace_RGB, chroma)
    if (!decoded || decoded.code || !decoded.channels)
      throw new DecodeError('libheif could not decode the image')
    try {
      const plane = interleavedPlane(lib, decoded)
      const channels = alpha ? 4 : 3
      // Copied out of the WebAssembly memory before the image is released.
      return {
        data: plane.data.slice(),
        width: plane.width,
        height: plane.height,
        stride: plane.stride,
        channels,
      } as const
    } finally {
      lib.heif_image_release(decoded.image)
    }
  } finally {
    lib.heif_image_handle_release(handle)
  }
}

export async function decodeHeif(file: Uint8Array, limits: DecodeLimits): Promise<Uint8Array> {
  const icc = await colourProfile(file)
  const lib = libheif()
  const context = lib.heif_context_alloc()
  try {
    return pixelsToPng(decodePrimary(lib, context, file, limits), icc)
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) discardLibheif()
    throw error
  } finally {
    try {
      lib.heif_context_free(context)
    } catch {
      discardLibheif()
    }
  }
}

import { profileForCodePoints } from './colour-profiles.ts'
import { jxlOxide } from './jxl-oxide-module.ts'
import { cicpOf, withProfile } from './png-output.ts'
import { DecodeError, type DecodeLimits } from './types.ts'

/**
 * JPEG XL to PNG with jxl-oxide: the first frame of an animation, its orientation applied.
 * jxl-oxide writes the PNG itself (the only way its package hands out pixels), tagged with the
 * image's ICC profile or, for images described by code points, a cICP chunk; that chunk is
 * turned into a profile sharp understands.
 */
async function render(file: Uint8Array, limits: DecodeLimits, forceSrgb: boolean): Promise<Uint8Array> {
  const { JxlImage } = jxlOxide()
  const image = new JxlImage()
  try {
    image.forceSrgb = forceSrgb
    image.feedBytes(file)
    if (!image.tryInit()) throw new DecodeError('the JPEG XL file ends before its header does')
    const pixels = (image.width ?? 0) * (image.height ?? 0)
    if (pixels > limits.maxPixels) throw new DecodeError(`${pixels} pixels is over the JPEG XL pixel limit`)
    if (!image.loaded) throw new DecodeError('the JPEG XL file is truncated')
    return image.render(0).encodeToPng()
  } finally {
    try {
      image.free()
    } catch {
      // A trap left the object unusable; the worker process is recycled for that.
    }
  }
}

export async function decodeJxl(file: Uint8Array, limits: DecodeLimits): Promise<Uint8Array> {
  const png = await render(file, limits, false)
  const cicp = cicpOf(png)
  if (!cicp) return png
  const [primaries, transfer] = [cicp[0]!, cicp[1]!]
  const sdr = transfer !== 16 && transfer !== 18
  if (sdr) return withProfile(png, await profileForCodePoints(primaries, transfer))
  // PQ or HLG: asked again for sRGB, which jxl-oxide tone-maps itself.
  const again = await render(file, limits, true)
  return withProfile(again, undefined)
}

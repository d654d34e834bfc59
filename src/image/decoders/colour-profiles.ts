import { sharp } from '../sharp.ts'

/**
 * H.273 colour code points (HEIF nclx, PNG cICP) as an ICC profile sharp can convert from.
 * Only the two that photos carry in practice are mapped: BT.709 primaries (sRGB, which needs
 * no profile) and Display P3 (iPhones). The P3 profile is the one libvips itself ships, read
 * back once from a 1x1 image, so no profile file is copied into this repository. Other
 * primaries (BT.2020) and HDR transfers (PQ, HLG) are passed on as sRGB: a best effort, since
 * the outputs are 8-bit SDR.
 */
const BT709 = 1
const UNSPECIFIED = 2
const DISPLAY_P3 = 12
const SRGB_TRANSFER = 13

let p3Profile: Promise<Uint8Array> | undefined

async function readP3Profile(): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
    .withIccProfile('p3')
    .png()
    .toBuffer()
  const { icc } = await sharp(png).metadata()
  if (!icc) throw new Error('libvips did not attach its Display P3 profile')
  return new Uint8Array(icc)
}

/** The profile for these code points, or undefined when the pixels are (treated as) sRGB. */
export async function profileForCodePoints(
  primaries: number,
  transfer: number,
): Promise<Uint8Array | undefined> {
  if (primaries === BT709 || primaries === UNSPECIFIED) return undefined
  if (primaries === DISPLAY_P3 && (transfer === SRGB_TRANSFER || transfer === UNSPECIFIED)) {
    p3Profile ??= readP3Profile()
    return p3Profile
  }
  return undefined
}

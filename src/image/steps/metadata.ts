import { decodes } from '../decoders/index.ts'
import type { PipelineStep } from './context.ts'
import { copyrightOf } from './copyright.ts'

/**
 * sharp's default output already is the `strip` policy: no EXIF/XMP/IPTC, pixels converted
 * to sRGB through any embedded ICC profile. `keep` copies EXIF, ICC, XMP and IPTC; the
 * orientation tag is reset to 1 because the orient step has already rotated the pixels.
 * `icc` keeps the colour profile, unconverted, and nothing else; `copyright` keeps it too, with
 * the copyright and author fields of EXIF and XMP (copyright.ts).
 */
export const metadata: PipelineStep = {
  name: 'metadata',
  options: ['metadata'],
  applies: ({ plan }) => plan.metadata !== 'strip',
  changesPixels: false,
  stages: () => ['output', 'output'],
  apply: async ({ image, plan, probe, input }) => {
    if (plan.metadata === 'keep') {
      image.keepMetadata()
      return
    }
    if (probe.hasIcc) image.keepIccProfile()
    // HEIC and JPEG XL reach sharp decoded, without their EXIF or XMP.
    if (plan.metadata !== 'copyright' || !probe.hasPrivateMetadata || decodes(probe.format)) return
    const fields = await copyrightOf(input)
    if (Object.keys(fields.exif).length > 0) image.withExif({ IFD0: fields.exif })
    if (fields.xmp) image.withXmp(fields.xmp)
  },
}

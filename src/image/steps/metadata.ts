import type { PipelineStep } from './context.ts'

/**
 * sharp's default output already is the `strip` policy: no EXIF/XMP/IPTC, pixels converted
 * to sRGB through any embedded ICC profile. `keep` copies EXIF, ICC, XMP and IPTC; the
 * orientation tag is reset to 1 because the orient step has already rotated the pixels.
 */
export const metadata: PipelineStep = ({ image, plan }) => {
  if (plan.metadata === 'keep') image.keepMetadata()
}

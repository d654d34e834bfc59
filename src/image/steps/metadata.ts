import type { PipelineStep } from './context.ts'

/**
 * sharp's default output already is the `strip` policy: no EXIF/XMP/IPTC, pixels converted
 * to sRGB through any embedded ICC profile. `keep` copies EXIF, ICC, XMP and IPTC; the
 * orientation tag is reset to 1 because the orient step has already rotated the pixels.
 */
export const metadata: PipelineStep = {
  name: 'metadata',
  options: ['metadata'],
  applies: ({ plan }) => plan.metadata === 'keep',
  changesPixels: false,
  stages: () => ['output', 'output'],
  apply: ({ image }) => {
    image.keepMetadata()
  },
}

import { FORMAT_TABLE, OUTPUT_FORMATS, type OutputFormat } from '../formats/format-table.ts'
import { qualityValues } from '../quality-values.ts'

/** Quality value the Accept header gives `type` (exact, then `major/*`, then `*\/*`). */
export function acceptQuality(accept: string, type: string): number {
  const [major] = type.split('/')
  let best = -1
  let specificity = -1
  for (const { value: range, q } of qualityValues(accept)) {
    const rank = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1
    if (rank > specificity) {
      specificity = rank
      best = q
    }
  }
  return specificity === -1 ? 0 : best
}

/** JSON when the caller asks for it at least as much as for the image itself. */
export function wantsJson(accept: string | null, imageMime: string): boolean {
  if (!accept) return false
  const json = acceptQuality(accept, 'application/json')
  return (
    json > 0 && json >= acceptQuality(accept, imageMime) && accept.toLowerCase().includes('application/json')
  )
}

/** The quality Accept gives exactly this media type, when it names it; undefined when it does not. */
function namedQuality(accept: string, type: string): number | undefined {
  return qualityValues(accept).find((entry) => entry.value === type)?.q
}

/**
 * The output formats an Accept header allows, for format=auto: those it names by their image
 * types with q > 0; when it names none that way (curl's `*\/*`, `image/*`, only
 * application/json for the JSON envelope), every web format but those it refuses by name with
 * q=0; undefined when it neither names nor refuses any, and then every web format is a candidate.
 */
export function acceptedImageFormats(accept: string | null): Set<OutputFormat> | undefined {
  if (!accept) return undefined
  const named = new Set<OutputFormat>()
  const refused = new Set<OutputFormat>()
  for (const id of OUTPUT_FORMATS) {
    const quality = namedQuality(accept, FORMAT_TABLE[id].mime)
    if (quality === undefined) continue
    ;(quality > 0 ? named : refused).add(id)
  }
  if (named.size > 0) return named
  if (refused.size > 0) return new Set(OUTPUT_FORMATS.filter((id) => !refused.has(id)))
  return undefined
}

export type VariantsContainer = 'zip' | 'json'

/**
 * How a variants request is answered: JSON when Accept names application/json at least as high
 * as a ZIP; a ZIP for application/zip, any type (curl's *\/*) or no Accept; undefined when Accept
 * allows neither (image/* alone): several images do not fit one image type.
 */
export function variantsContainer(accept: string | null): VariantsContainer | undefined {
  if (!accept) return 'zip'
  const json = acceptQuality(accept, 'application/json')
  const zip = acceptQuality(accept, 'application/zip')
  if (json > 0 && json >= zip && accept.toLowerCase().includes('application/json')) return 'json'
  return zip > 0 ? 'zip' : undefined
}
